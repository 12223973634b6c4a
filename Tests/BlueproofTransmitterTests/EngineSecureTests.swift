import BlueproofTransmitter
import Foundation
import Testing

/// A raw node on the simulated network that writes frames by hand (a forger, a flooder).
struct RawNode {
    let identity: TransmitterIdentity
    let link: SimulatedLink

    static func join(_ harness: EngineHarness, nextTo peer: UserID) async throws -> RawNode {
        let identity = try EngineHarness.identities.make()
        let link = harness.network.link()
        let events = link.events()
        try await link.start(localUser: identity.userID)
        harness.network.addEdge(identity.userID, peer)
        // Drain the events, so the network can tell when it is quiet; answer the peer's hello
        // challenge (issue 15: the hello), so it reports this node connected.
        Task {
            for await event in events {
                guard case let .frame(from, bytes) = event, case let .hello(hello)? = try? TransmitterFrame.decode(bytes), hello.proof == nil,
                      let answer = try? HelloFrame.answer(by: identity, to: from, challenge: hello.nonce, nonce: hello.nonce) else { continue }
                try? await link.send(TransmitterFrame.hello(answer).encoded(), to: from)
            }
        }
        try await link.connect(to: peer)
        return RawNode(identity: identity, link: link)
    }

    /// A signed data frame as `sender` claims to be, signed with this node's key.
    func frame(claiming sender: UserID, to receiver: UserID?, text: String, expiry: Date, hops: UInt8 = 3) throws -> DataFrame {
        let payload = try TransmitterPayload(dictionary: EngineHarness.message(text)).encoded()
        var flags: DataFrame.Flags = [.mesh, .hasDictionary]
        if receiver == nil { flags.insert(.broadcast) }
        var frame = DataFrame(flags: flags, hopsRemaining: hops, packetID: PacketID(), sender: sender, receiver: receiver,
                              expiry: DataFrame.milliseconds(expiry), senderKey: identity.publicKeys.signingKey, payload: payload)
        frame.signature = try identity.sign(frame.signedBytes)
        return frame
    }

    func send(_ frame: DataFrame, to peer: UserID) async throws {
        try await link.send(TransmitterFrame.data(frame).encoded(), to: peer)
    }
}

@Suite("Engine: secure connections and keys", .timeLimit(.minutes(5)))
struct EngineSecureTests {
    static let always: @Sendable (UserID) -> Bool = { _ in true }

    @Test("shouldConnectSecurely starts a key exchange; encrypted direct is then delivered")
    func encryptedDirect() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(secure: Self.always), b = try await harness.node()
        await #expect(throws: TransmitterError.noSecureConnection) {
            try await a.transmitter.send(dictionary: ["x": .integer(1)], data: nil, to: b.user, options: [.meshTransmission, .encrypted])
        }
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .secureConnection(b.user) }
        try await b.recorder.first { $0 == .secureConnection(a.user) }
        #expect(await a.transmitter.existsKey(forUser: b.user))
        #expect(await b.transmitter.existsKey(forUser: a.user))
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("secret"), data: nil, to: b.user, options: [.directTransmission, .encrypted])
        let packet = try await b.recorder.receivedPacket(id)
        #expect(packet.encrypted && packet.dictionary == EngineHarness.message("secret"))
    }

    @Test("establishSecureConnection on request, once per side")
    func establishOnRequest() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        try await harness.link(a, b)
        #expect(!(await a.transmitter.existsKey(forUser: b.user)))
        try await a.transmitter.establishSecureConnection(with: b.user)
        try await a.recorder.first { $0 == .secureConnection(b.user) }
        await harness.network.quiescent()
        try await a.caughtUp()
        #expect(a.recorder.events.filter { $0 == .secureConnection(b.user) }.count == 1)
        try await b.caughtUp()
        #expect(b.recorder.events.filter { $0 == .secureConnection(a.user) }.count == 1)
        await #expect(throws: TransmitterError.directReceiverNotInRange) { try await a.transmitter.establishSecureConnection(with: .random()) }
    }

    @Test("an imported key allows encrypted mesh to a user never met, through a relay that cannot read it")
    func importedKeyMesh() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node(), c = try await harness.node()
        try await harness.link(a, b)
        try await harness.link(b, c)
        try await a.transmitter.savePublicKey(try await c.transmitter.localPublicKey(), forUser: c.user)
        #expect(await a.transmitter.existsKey(forUser: c.user))
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("for C only"), data: nil, to: c.user, options: [.meshTransmission, .encrypted])
        let packet = try await c.recorder.receivedPacket(id)
        #expect(packet.encrypted && packet.mesh && packet.dictionary == EngineHarness.message("for C only"))
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(b) == 0)
    }

    @Test("no frame on the air carries the plaintext of an encrypted packet")
    func plaintextNeverOnAir() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node(), c = try await harness.node()
        try await harness.link(a, b)
        try await harness.link(b, c)
        try await a.transmitter.savePublicKey(try await c.transmitter.localPublicKey(), forUser: c.user)
        harness.network.startCapture()
        let marker = "plaintext-\(UUID())"
        let id = try await a.transmitter.send(dictionary: EngineHarness.message(marker), data: nil, to: c.user, options: [.meshTransmission, .encrypted])
        #expect(try await c.recorder.receivedPacket(id).dictionary == EngineHarness.message(marker))
        await harness.network.quiescent()
        let frames = harness.network.capturedFrames
        #expect(frames.count >= 2, "A to B and B to C")
        let needle = Array(marker.utf8)
        #expect(!frames.contains { frame in frame.bytes.indices.contains { frame.bytes[$0...].starts(with: needle) } })
        // The same message unencrypted does show on the air: the check can fail.
        harness.network.startCapture()
        let plain = try await a.transmitter.send(dictionary: EngineHarness.message(marker), data: nil, to: c.user, options: [.meshTransmission])
        _ = try await c.recorder.receivedPacket(plain)
        #expect(harness.network.capturedFrames.contains { frame in frame.bytes.indices.contains { frame.bytes[$0...].starts(with: needle) } })
    }

    /// A and B make a secure connection, then B leaves range at t0 (limit 100 s).
    static func securedThenApart(defects: TransmitterDefects = []) async throws -> (EngineHarness, SimNode, SimNode) {
        let harness = EngineHarness()
        let a = try await harness.node(defects: defects, secure: Self.always), b = try await harness.node()
        try await a.transmitter.setSecureConnectionExpirationLimit(100)
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .secureConnection(b.user) }
        harness.clock.advance(by: 500)  // in range: the connection stays alive
        harness.network.removeEdge(a.user, b.user)
        try await a.recorder.first { $0 == .disconnected(b.user) }
        await harness.network.quiescent()
        return (harness, a, b)
    }

    static func sendEncrypted(_ a: SimNode, to b: SimNode) async throws -> PacketID {
        try await a.transmitter.send(dictionary: EngineHarness.message("e"), data: nil, to: b.user, options: [.meshTransmission, .encrypted])
    }

    @Test("without activity the secure connection lapses after the limit")
    func lapses() async throws {
        let (harness, a, b) = try await Self.securedThenApart()
        #expect(await a.transmitter.secureConnectionExpirationLimit() == 100)
        harness.clock.advance(by: 100)
        _ = try await Self.sendEncrypted(a, to: b)  // exactly the limit: still allowed
        harness.clock.advance(by: 101)
        await #expect(throws: TransmitterError.noSecureConnection) { try await Self.sendEncrypted(a, to: b) }
    }

    @Test("encrypted content sent while away refreshes the secure connection")
    func refreshedBySending() async throws {
        let (harness, a, b) = try await Self.securedThenApart()
        harness.clock.advance(by: 60)
        _ = try await Self.sendEncrypted(a, to: b)
        harness.clock.advance(by: 60)  // 120 s since B left, 60 s since the last activity
        _ = try await Self.sendEncrypted(a, to: b)
        harness.clock.advance(by: 101)
        await #expect(throws: TransmitterError.noSecureConnection) { try await Self.sendEncrypted(a, to: b) }
    }

    @Test("after expiry a new secure connection makes encryption possible again")
    func renewed() async throws {
        let (harness, a, b) = try await Self.securedThenApart()
        harness.clock.advance(by: 200)
        await #expect(throws: TransmitterError.noSecureConnection) { try await Self.sendEncrypted(a, to: b) }
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .connected(b.user) }
        await harness.network.quiescent()
        _ = try await Self.sendEncrypted(a, to: b)
    }

    @Test("the expiry limit is kept in the session and refused when not positive")
    func limitPersisted() async throws {
        let harness = EngineHarness()
        let a = try await harness.node()
        try await a.transmitter.setSecureConnectionExpirationLimit(42)
        #expect(try a.session.load()?.secureConnectionExpirationLimit == 42)
        await #expect(throws: TransmitterError.sessionError) { try await a.transmitter.setSecureConnectionExpirationLimit(0) }
    }

    @Test("a changed key for a known user is refused, the first kept")
    func importConflict() async throws {
        let harness = EngineHarness()
        let a = try await harness.node()
        let user = UserID.random()
        let first = try EngineHarness.identities.make(user).publicKeys.base64
        let second = try EngineHarness.identities.make(user).publicKeys.base64
        try await a.transmitter.savePublicKey(first, forUser: user)
        try await a.transmitter.savePublicKey(first, forUser: user)  // the same key again is fine
        await #expect(throws: TransmitterError.publicKeyConflict) { try await a.transmitter.savePublicKey(second, forUser: user) }
        #expect(try a.session.load()?.knownKeys[user]?.base64 == first)
        await #expect(throws: TransmitterError.invalidPublicKey) { try await a.transmitter.savePublicKey("bm90IGEga2V5", forUser: user) }
    }

    @Test("a key exchange with a key other than the one on record gives keyConflict")
    func handshakeConflict() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(secure: Self.always), b = try await harness.node()
        let impostorKey = try EngineHarness.identities.make(b.user).publicKeys.base64
        try await a.transmitter.savePublicKey(impostorKey, forUser: b.user)
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .keyConflict(b.user) }
        #expect(try a.session.load()?.knownKeys[b.user]?.base64 == impostorKey)
    }

    @Test("a frame claiming a known sender but signed with another key is dropped with keyConflict")
    func forgedSender() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        try await b.transmitter.savePublicKey(try await a.transmitter.localPublicKey(), forUser: a.user)
        let forger = try await RawNode.join(harness, nextTo: b.user)
        try await b.recorder.first { $0 == .connected(forger.identity.userID) }
        let forged = try forger.frame(claiming: a.user, to: b.user, text: "forged", expiry: harness.clock.now().addingTimeInterval(60))
        try await forger.send(forged, to: b.user)
        try await b.recorder.first { $0 == .keyConflict(a.user) }
        // An honest frame from the forger in its own name is delivered: the check is per sender.
        let honest = try forger.frame(claiming: forger.identity.userID, to: b.user, text: "honest", expiry: harness.clock.now().addingTimeInterval(60))
        try await forger.send(honest, to: b.user)
        #expect(try await b.recorder.receivedPacket(honest.packetID).sender == forger.identity.userID)
        #expect(!b.recorder.received.contains { $0.packetID == forged.packetID })
        #expect(await EngineHarness.delivered(b) == 1)
    }

    @Test("a frame whose payload was altered after signing is dropped")
    func tampered() async throws {
        let harness = EngineHarness()
        let b = try await harness.node()
        let relay = try await RawNode.join(harness, nextTo: b.user)
        try await b.recorder.first { $0 == .connected(relay.identity.userID) }
        var frame = try relay.frame(claiming: relay.identity.userID, to: b.user, text: "original", expiry: harness.clock.now().addingTimeInterval(60))
        frame.payload = try TransmitterPayload(dictionary: EngineHarness.message("altered")).encoded()
        try await relay.send(frame, to: b.user)
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(b) == 0)
        #expect(await b.transmitter.currentStatistics().rejected == 1)
    }
}
