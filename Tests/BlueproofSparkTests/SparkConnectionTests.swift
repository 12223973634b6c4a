import BlueproofSpark
import Testing

/// Connections: offered, available, accepted, declined, ended, key error, metadata, limits
/// (spark-data-transfer-readme.md "Listening For Data Connections", "Starting A Data Connection").
@Suite("Spark connections")
struct SparkConnectionTests {
    static let a: UInt64 = 100, b: UInt64 = 200, c: UInt64 = 300

    static func net(concurrency: SparkConcurrency = .several(limit: 8), acceptance: SparkAnswer = .application) -> SparkNet {
        let net = SparkNet()
        net.add(a, knows: [b, c])
        net.add(b, knows: [a, c], acceptance: acceptance, concurrency: concurrency)
        net.add(c, knows: [a, b])
        return net
    }

    @Test("an offer is offered, set up, available; accepting gives dataConnectionAccepted on both sides (SPK/CONN/BV-01, BV-02)")
    func offerAcceptFlow() throws {
        let net = Self.net()
        let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b, metadata: "hi") }
        #expect(net.take(Self.a) == [.offering(out, metadata: "hi")])
        net.pump()
        let incoming = SparkConnectionID(peer: Self.a, number: out.number, outgoing: false)
        #expect(net.take(Self.b) == [.offered(incoming, metadata: "hi"), .available(incoming)])
        #expect(net.cores[Self.a]?.state(of: out) == .offering)
        try net.on(Self.b) { try $0.accept(incoming) }
        net.pump()
        #expect(net.take(Self.b) == [.accepted(incoming)])
        #expect(net.take(Self.a) == [.accepted(out)])
        #expect(net.cores[Self.a]?.state(of: out) == .accepted && net.cores[Self.b]?.state(of: incoming) == .accepted)
    }

    @Test("set-up by the application: offered stays offered until dataConnectionSetupComplete; automatic acceptance accepts at once")
    func manualSetupAutomaticAccept() throws {
        let net = SparkNet()
        net.add(Self.a, knows: [Self.b])
        net.add(Self.b, knows: [Self.a], setup: .application, acceptance: .automatic)
        let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        let incoming = SparkConnectionID(peer: Self.a, number: out.number, outgoing: false)
        #expect(net.take(Self.b) == [.offered(incoming, metadata: "")])
        #expect(throws: SparkError.wrongState(incoming, .offered)) { try net.on(Self.b) { try $0.accept(incoming) } }
        try net.on(Self.b) { try $0.setupComplete(incoming) }
        net.pump()
        #expect(net.take(Self.b) == [.available(incoming), .accepted(incoming)])
        #expect(net.take(Self.a).contains(.accepted(out)))
    }

    @Test("declining an incoming connection ends it on both sides (SPK/CONN/BI-01)")
    func decline() throws {
        let net = Self.net()
        let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        let incoming = SparkConnectionID(peer: Self.a, number: out.number, outgoing: false)
        _ = net.take(Self.b)
        try net.on(Self.b) { try $0.decline(incoming) }
        net.pump()
        #expect(net.take(Self.b) == [.ended(incoming, .declined, by: .local)])
        #expect(net.take(Self.a) == [.offering(out, metadata: ""), .ended(out, .declined, by: .remote)])
        #expect(net.cores[Self.a]?.state(of: out) == nil && net.cores[Self.b]?.state(of: incoming) == nil)
        // A late accept of the declined connection is refused: it is gone.
        #expect(throws: SparkError.unknownConnection(incoming)) { try net.on(Self.b) { try $0.accept(incoming) } }
    }

    @Test("an app holding one connection ends a second offer at once, as the sample does (SPK/CONN/BI-02)")
    func singleConnectionApp() throws {
        let net = Self.net(concurrency: .single)
        let (first, _) = try net.connect(Self.a, Self.b)
        let second = try net.on(Self.c) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        let incoming = SparkConnectionID(peer: Self.c, number: second.number, outgoing: false)
        #expect(net.take(Self.b) == [.offered(incoming, metadata: ""), .ended(incoming, .busy, by: .local)])
        #expect(net.take(Self.c) == [.offering(second, metadata: ""), .ended(second, .busy, by: .remote)])
        #expect(net.cores[Self.a]?.state(of: first) == .accepted)
    }

    @Test("several concurrent connections with different users when the app allows them (SPK/CONN/BV-03)")
    func severalConnections() throws {
        let net = Self.net()
        let (fromA, atBFromA) = try net.connect(Self.a, Self.b)
        let (fromC, atBFromC) = try net.connect(Self.c, Self.b)
        #expect(Set(net.cores[Self.b]!.liveConnections) == [atBFromA, atBFromC])
        #expect(net.cores[Self.a]?.state(of: fromA) == .accepted && net.cores[Self.c]?.state(of: fromC) == .accepted)
    }

    @Test("the app's connection limit declines offers past it with tooManyConnections")
    func connectionLimit() throws {
        let net = Self.net(concurrency: .several(limit: 1))
        _ = try net.connect(Self.a, Self.b)
        let out = try net.on(Self.c) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        #expect(net.take(Self.c).last == .ended(out, .tooManyConnections, by: .remote))
    }

    @Test("no key for the callee: the start fails with the key error (SPK/CONN/BI-03)")
    func keyErrorCaller() {
        let net = SparkNet()
        net.add(Self.a)
        net.add(Self.b, knows: [Self.a])
        #expect(throws: SparkError.keyError(peer: Self.b)) { try net.on(Self.a) { try $0.startDataConnection(to: Self.b) } }
        #expect(net.pump() == 0)
    }

    @Test("the callee lacks the caller's key: both sides end with the key error (SPK/CONN/BI-03)")
    func keyErrorBothSides() throws {
        let net = SparkNet()
        net.add(Self.a, knows: [Self.b])
        net.add(Self.b)
        let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        let incoming = SparkConnectionID(peer: Self.a, number: out.number, outgoing: false)
        #expect(net.take(Self.b) == [.ended(incoming, .keyError, by: .local)])
        #expect(net.take(Self.a).last == .ended(out, .keyError, by: .remote))
        // A key on record that is not the caller's is the same failure.
        net.cores[Self.b]?.recordKey(SparkNet.key(7), for: Self.a)
        let again = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        #expect(net.take(Self.a).last == .ended(again, .keyError, by: .remote))
    }

    @Test("metadata: 4095 and 4096 bytes reach the callee, 4097 is refused with a typed error (SPK/CONN/BV-04, BV-05, BI-04)")
    func metadataLimit() throws {
        let net = Self.net()
        for size in [4095, 4096] {
            let metadata = String(repeating: "x", count: size)
            let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b, metadata: metadata) }
            net.pump()
            #expect(net.take(Self.b).first == .offered(SparkConnectionID(peer: Self.a, number: out.number, outgoing: false), metadata: metadata))
        }
        #expect(throws: SparkError.metadataTooLarge(bytes: 4097, limit: 4096)) {
            try net.on(Self.a) { try $0.startDataConnection(to: Self.b, metadata: String(repeating: "x", count: 4097)) }
        }
    }

    @Test("an offer the callee cannot read (metadata over the limit on the wire) is declined as malformed (SPK/CONN/BI-04)")
    func oversizedOfferOnWire() throws {
        let net = Self.net()
        var body = [UInt8](repeating: 0, count: 7) + [UInt8(Self.a)] + [UInt8](repeating: 0, count: 7) + [UInt8(Self.b)]
        body += SparkNet.key(Self.a) + [0x10, 0x01] + [UInt8](repeating: 0x6D, count: 4097)
        net.cores[Self.b]?.receive(SparkCodecTests.raw(kind: 2, body: body), from: Self.a)
        net.collect()
        let events = net.take(Self.b)
        #expect(events.count == 1)
        guard case .ignored(_, .malformed(let error)) = events.first else {
            Issue.record("not a malformed frame: \(events)")
            return
        }
        #expect(error.reason == .metadataTooLarge(bytes: 4097, limit: 4096))
        let reply = try #require(net.on(Self.b) { $0.nextFrame(for: Self.a) })
        #expect(try SparkEnvelope.decode(reply) == SparkEnvelope(origin: .receiver, connection: 7, frame: .decline(.malformed)))
    }

    @Test("either side ends an accepted connection with a reason; the other sees it ended by the remote")
    func endFromEitherSide() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        try net.on(Self.a) { try $0.end(out) }
        net.pump()
        #expect(net.take(Self.a) == [.ended(out, .ended, by: .local)])
        #expect(net.take(Self.b) == [.ended(incoming, .ended, by: .remote)])
        let (out2, incoming2) = try net.connect(Self.a, Self.b)
        try net.on(Self.b) { try $0.end(incoming2, reason: .busy) }
        net.pump()
        #expect(net.take(Self.a) == [.ended(out2, .busy, by: .remote)])
    }

    @Test("an unanswered offer ends with timeout on both sides when the clock passes the offer timeout")
    func offerTimeout() throws {
        let net = Self.net()
        let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        net.pump()
        _ = net.take(Self.a)
        net.clock.advance(by: 9.9)
        net.on(Self.a) { $0.tick() }
        #expect(net.take(Self.a).isEmpty)
        net.clock.advance(by: 0.1)
        net.on(Self.a) { $0.tick() }
        net.pump()
        #expect(net.take(Self.a) == [.ended(out, .timeout, by: .local)])
        #expect(net.take(Self.b).last == .ended(SparkConnectionID(peer: Self.a, number: out.number, outgoing: false), .timeout, by: .remote))
    }

    @Test("a lost link ends every connection with that peer")
    func linkLost() throws {
        let net = Self.net()
        let (out, _) = try net.connect(Self.a, Self.b)
        net.on(Self.a) { $0.linkLost(Self.b) }
        #expect(net.take(Self.a) == [.ended(out, .linkLost, by: .remote)])
        #expect(net.cores[Self.a]?.pendingPeers.isEmpty == true)
    }

    @Test("frames for unknown connections or out of state are ignored and reported")
    func strayFrames() throws {
        let net = Self.net()
        let stray = try SparkEnvelope(origin: .receiver, connection: 42, frame: .accept).encoded()
        net.cores[Self.b]?.receive(stray, from: Self.a)
        net.collect()
        #expect(net.take(Self.b) == [.ignored(peer: Self.a, .unknownConnection(number: 42, kind: SparkFrame.accept.kind))])
        let out = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        let early = try SparkEnvelope(origin: .receiver, connection: out.number, frame: .channelOpen(channel: 1, description: "x")).encoded()
        net.cores[Self.a]?.receive(early, from: Self.b)
        net.collect()
        #expect(net.take(Self.a).last == .ignored(peer: Self.b, .unexpected(out, kind: 6)))
    }
}
