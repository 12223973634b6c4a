import Foundation
import Testing
@testable import BlueproofTransmitter

/// Issue 15 (atkA): user ids bound to signing keys, and the receive checks in their order
/// (docs/security.md, "Impersonation by data frame").
@Suite("Attacks on the receive path")
struct EngineAttackTests {
    @Test("a new identity's user id is the one its signing key derives: a version-8 UUID, the same every time")
    func derivedIDs() throws {
        let identity = try EngineHarness.identities.make()
        #expect(identity.userID == UserID.derived(from: identity.publicKeys.signingKey))
        #expect(identity.userID.isDerived(from: identity.publicKeys.signingKey))
        #expect(identity.userID.description.dropFirst(14).first == "8")
        let other = try EngineHarness.identities.make()
        #expect(!identity.userID.isDerived(from: other.publicKeys.signingKey))
    }

    @Test("a signed frame claiming a sender never met is dropped unreported; senderNotBoundToKey delivers it")
    func neverMetSender() async throws {
        for (defects, delivered) in [(TransmitterDefects(), 0), (.senderNotBoundToKey, 1)] {
            let harness = EngineHarness()
            let b = try await harness.node(defects: defects)
            let forger = try await RawNode.join(harness, nextTo: b.user)
            try await b.recorder.first { $0 == .connected(forger.identity.userID) }
            let victim = try EngineHarness.identities.make().userID
            try await forger.send(try forger.frame(claiming: victim, to: b.user, text: "forged", expiry: harness.clock.now().addingTimeInterval(60)), to: b.user)
            await harness.network.quiescent()
            #expect(await EngineHarness.delivered(b) == delivered, "defects \(defects.rawValue)")
            try await b.caughtUp()
            #expect(!b.recorder.events.contains(.keyConflict(victim)))
        }
    }

    @Test("a sealed frame is checked once opened: claiming a sender never met, it is dropped; senderNotBoundToKey and sealedSenderUnchecked deliver it; the forger's own id is delivered")
    func sealedForgery() async throws {
        for (defects, claimVictim, delivered) in [(TransmitterDefects(), true, 0), (.senderNotBoundToKey, true, 1), (.sealedSenderUnchecked, true, 1),
                                                  (TransmitterDefects(), false, 1)] {
            let harness = EngineHarness()
            let b = try await harness.node(defects: defects)
            let forger = try await RawNode.join(harness, nextTo: b.user)
            try await b.recorder.first { $0 == .connected(forger.identity.userID) }
            let claimed = claimVictim ? try EngineHarness.identities.make().userID : forger.identity.userID
            var frame = try forger.frame(claiming: claimed, to: b.user, text: "sealed", expiry: harness.clock.now().addingTimeInterval(60))
            frame.flags.insert(.encrypted)
            frame = try frame.signed(by: forger.identity).sealed(to: PublicKeyBundle(base64: await b.transmitter.localPublicKey()))
            try await forger.send(frame, to: b.user)
            await harness.network.quiescent()
            #expect(await EngineHarness.delivered(b) == delivered, "defects \(defects.rawValue), claiming \(claimVictim ? "a victim" : "itself")")
        }
    }

    @Test("a sealed copy whose tag was altered is dropped with nothing sent and the genuine frame under its id is delivered; openFailureAnswered answers it with a keyRequest, failedOpeningMarksSeen loses the genuine frame, tagUnchecked delivers the copy")
    func alteredSealedCopy() async throws {
        for (defects, copyDelivered, delivered, requests) in [(TransmitterDefects(), 0, 1, 0), (.openFailureAnswered, 0, 1, 1), (.failedOpeningMarksSeen, 0, 0, 0),
                                                              (.tagUnchecked, 1, 1, 0)] {
            let harness = EngineHarness()
            let b = try await harness.node(defects: defects)
            let forger = try await RawNode.join(harness, nextTo: b.user)
            try await b.recorder.first { $0 == .connected(forger.identity.userID) }
            await harness.network.quiescent()
            var genuine = try forger.frame(claiming: forger.identity.userID, to: b.user, text: "sealed", expiry: harness.clock.now().addingTimeInterval(60))
            genuine.flags.insert(.encrypted)
            genuine = try genuine.signed(by: forger.identity).sealed(to: PublicKeyBundle(base64: await b.transmitter.localPublicKey()))
            var altered = genuine
            altered.payload[altered.payload.count - 1] ^= 0x01
            harness.network.startCapture()
            try await forger.send(altered, to: b.user)
            await harness.network.quiescent()
            #expect(await EngineHarness.delivered(b) == copyDelivered, "defects \(defects.rawValue): the altered copy")
            try await forger.send(genuine, to: b.user)
            await harness.network.quiescent()
            #expect(await EngineHarness.delivered(b) == delivered, "defects \(defects.rawValue)")
            let sent = harness.network.capturedFrames.filter { $0.from == b.user }.compactMap { try? TransmitterFrame.decode($0.bytes).kind }
            #expect(sent.filter { $0 == .keyRequest }.count == requests, "defects \(defects.rawValue): \(sent)")
        }
    }

    @Test("an unsigned frame claiming a known sender raises no keyConflict; keyConflictBeforeSignature raises it")
    func unsignedKnownSender() async throws {
        for (defects, conflict) in [(TransmitterDefects(), false), (.keyConflictBeforeSignature, true)] {
            let harness = EngineHarness()
            let b = try await harness.node(defects: defects)
            let victim = try EngineHarness.identities.make()
            try await b.transmitter.savePublicKey(victim.publicKeys.base64, forUser: victim.userID)
            let forger = try await RawNode.join(harness, nextTo: b.user)
            try await b.recorder.first { $0 == .connected(forger.identity.userID) }
            var frame = try forger.frame(claiming: victim.userID, to: b.user, text: "forged", expiry: harness.clock.now().addingTimeInterval(60))
            frame.signature = [UInt8](repeating: 0, count: DataFrame.signatureSize)
            try await forger.send(frame, to: b.user)
            await harness.network.quiescent()
            try await b.caughtUp()
            #expect(b.recorder.events.contains(.keyConflict(victim.userID)) == conflict, "defects \(defects.rawValue)")
            #expect(await EngineHarness.delivered(b) == 0)
        }
    }

    @Test("a keyRequest carrying a key that does not derive the peer's id is refused; keyNotBoundToUser takes it")
    func substitutedKey() async throws {
        for (defects, taken) in [(TransmitterDefects(), false), (.keyNotBoundToUser, true)] {
            let harness = EngineHarness()
            let b = try await harness.node(defects: defects)
            let relay = try await RawNode.join(harness, nextTo: b.user)
            try await b.recorder.first { $0 == .connected(relay.identity.userID) }
            let substitute = try EngineHarness.identities.make()
            let request = TransmitterFrame.keyRequest(try KeyExchangeFrame.signed(.keyRequest, naming: relay.identity.userID, by: substitute))
            try await relay.link.send(request.encoded(), to: b.user)
            await harness.network.quiescent()
            #expect(await b.transmitter.existsKey(forUser: relay.identity.userID) == taken, "defects \(defects.rawValue)")
        }
    }

    @Test("a keyResponse carrying a key that does not derive the peer's id is refused; responseKeyNotBoundToUser takes it, and still refuses such a keyRequest")
    func substitutedResponse() async throws {
        for (defects, taken) in [(TransmitterDefects(), false), (.responseKeyNotBoundToUser, true)] {
            let harness = EngineHarness()
            let b = try await harness.node(defects: defects)
            let relay = try await RawNode.join(harness, nextTo: b.user)
            let peer = relay.identity.userID
            try await b.recorder.first { $0 == .connected(peer) }
            let substitute = try EngineHarness.identities.make()
            func frame(_ kind: FrameKind) throws -> KeyExchangeFrame { try KeyExchangeFrame.signed(kind, naming: peer, by: substitute) }
            try await relay.link.send(TransmitterFrame.keyRequest(try frame(.keyRequest)).encoded(), to: b.user)
            await harness.network.quiescent()
            #expect(await !b.transmitter.existsKey(forUser: peer), "a substituted keyRequest, defects \(defects.rawValue)")
            try await b.transmitter.establishSecureConnection(with: peer)
            try await relay.link.send(TransmitterFrame.keyResponse(try frame(.keyResponse)).encoded(), to: b.user)
            await harness.network.quiescent()
            #expect(await b.transmitter.existsKey(forUser: peer) == taken, "defects \(defects.rawValue)")
            try await b.caughtUp()
            #expect(b.recorder.events.contains(.secureConnection(peer)) == taken, "defects \(defects.rawValue)")
        }
    }

    @Test("a node intercepting key requests hands them over unanswered; secureWithoutResponse reports the secure connection anyway")
    func withheldRequest() async throws {
        for (defects, reported) in [(TransmitterDefects(), false), (.secureWithoutResponse, true)] {
            let harness = EngineHarness()
            let a = try await harness.node(defects: defects), b = try await harness.node()
            try await harness.link(a, b)
            let withheld = await b.transmitter.interceptKeyRequests()
            try await a.transmitter.establishSecureConnection(with: b.user)
            await harness.network.quiescent()
            try await a.caughtUp()
            #expect(a.recorder.events.contains(.secureConnection(b.user)) == reported, "defects \(defects.rawValue)")
            #expect(await !b.transmitter.existsKey(forUser: a.user))
            await b.transmitter.answerKeyRequests()
            var requests: [UserID] = []
            for await peer in withheld { requests.append(peer) }  // ends: answering finishes the stream
            #expect(requests == [a.user])
            let mark = a.recorder.events.count
            try await a.transmitter.establishSecureConnection(with: b.user)
            await harness.network.quiescent()
            try await a.recorder.first(from: mark) { $0 == .secureConnection(b.user) }
            #expect(await b.transmitter.existsKey(forUser: a.user))
        }
    }

    @Test("the replay guard refuses an id it took, and a flood of fresh ids raises its floor instead of forgetting it")
    func replayGuard() throws {
        var state = ReplayGuard(capacity: 4)
        let first = PacketID()
        var taken = state.admit(first, expiry: 1_000, now: 0)
        #expect(taken)
        taken = state.admit(first, expiry: 1_000, now: 0)
        #expect(!taken)
        for index in 0..<10 {
            taken = state.admit(PacketID(), expiry: 2_000 + UInt64(index), now: 0)
            #expect(taken)
        }
        #expect(state.expiries.count == 4)
        taken = state.admit(first, expiry: 1_000, now: 0)
        #expect(!taken, "flushed by fresh ids")
        #expect(state.floor >= 1_000)
        // Expired ids go; the router refuses expired packets anyway.
        taken = state.admit(PacketID(), expiry: 5_000, now: 3_000)
        #expect(taken)
        #expect(state.expiries.count == 1)
    }

    @Test("the replay state file reads back as written; a damaged one is a typed error")
    func replayFile() throws {
        var state = ReplayGuard(capacity: 8)
        for index in 0..<5 { _ = state.admit(PacketID(), expiry: 100 + UInt64(index), now: 0) }
        let bytes = state.encoded()
        #expect(try ReplayGuard.decode(bytes, capacity: 8) == state)
        let smaller = try ReplayGuard.decode(bytes, capacity: 2)
        #expect(smaller.expiries.count == 2 && smaller.floor == 102)
        #expect(throws: FrameError.self) { try ReplayGuard.decode(Array(bytes.dropLast()), capacity: 8) }
        #expect(throws: FrameError.self) { try ReplayGuard.decode([1, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], capacity: 8) }
        #expect(throws: FrameError.self) { try ReplayGuard.decode([9], capacity: 8) }
    }
}
