import BlueproofTransmitter
import Foundation

/// Sessions and keys (bridgefy-ios-sdk-readme.md, "Session", "Export and import keys").
enum SessionKeyCases {
    static let message: [String: TransmitterValue] = ["text": .string("blueproof session")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/SES/BV-01", nodes: 1, brokenBy: [.hasSessionAlwaysFalse]) { stage in
                // The stage gives a device without a session: hasSession must say so before
                // the start, or its turning true afterwards shows nothing.
                guard await !stage.subject.hasSession() else { return .fail("hasSession is true before the first start, with no session made") }
                try await stage.start(0)
                guard await stage.subject.hasSession() else { return .fail("hasSession is false after the first start") }
                return .pass("hasSession was false before the first start and is true once the transmitter started")
            },
            ScriptCase("BFT/SES/BV-02", nodes: 2, brokenBy: [.senderMisreported]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                guard (try? await stage.subject.localPublicKey()) != nil else { return .fail("the session has no public key") }
                let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: .directTransmission)
                guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                    return .fail("packet \(id) never reached the tester")
                }
                guard packet.sender == subject else { return .fail("the session's id is \(subject), the tester sees \(packet.sender)") }
                return .pass("the session's id \(subject) is what the tester sees, and the session has a key pair")
            },
            ScriptCase("BFT/SES/BV-07", nodes: 1, brokenBy: [.sessionNotDestroyed]) { stage in
                try await stage.start(0)
                try await stage.subject.destroySession()
                guard await !stage.subject.hasSession() else { return .fail("hasSession is still true after destroySession") }
                return .pass("hasSession turned false with destroySession")
            },
            ScriptCase("BFT/SES/BV-08", nodes: 1, brokenBy: [.sessionNotDestroyed]) { stage in
                let before = try await stage.start(0)
                let keyBefore = try await stage.subject.localPublicKey()
                try await stage.subject.destroySession()
                let after = try await stage.start(0)
                let keyAfter = try await stage.subject.localPublicKey()
                guard after != before else { return .fail("the start after destroySession kept user id \(before)") }
                guard keyAfter != keyBefore else { return .fail("the start after destroySession kept the public key") }
                return .pass("new user id \(after.shortName)… (was \(before.shortName)…) and a new public key")
            },
            ScriptCase("BFT/SES/BI-01", nodes: 1, brokenBy: [.sessionNotDestroyed]) { stage in
                try await stage.start(0)
                try await stage.subject.destroySession()
                if let id = try? await stage.subject.send(dictionary: message, data: nil, to: nil, options: .broadcastReceiver) {
                    return .fail("a broadcast was accepted with the session destroyed (packet \(id))")
                }
                return .pass("sends are refused once the session is destroyed")
            },
            ScriptCase("BFT/KEY/BV-01", nodes: 1, brokenBy: [.publicKeyNotBase64]) { stage in
                try await stage.start(0)
                let key = try await stage.subject.localPublicKey()
                guard let bytes = Data(base64Encoded: key), !bytes.isEmpty else { return .fail("localPublicKey is not base64: \(key.prefix(24))…") }
                return .pass("localPublicKey is base64 (\(bytes.count) bytes)")
            },
            ScriptCase("BFT/KEY/BV-02", nodes: 1, brokenBy: [.sessionNotPersisted], keyAcrossProcesses),
            ScriptCase("BFT/KEY/BV-03", nodes: 1, brokenBy: [.sessionNotDestroyed]) { stage in
                try await stage.start(0)
                let first = try await stage.subject.localPublicKey()
                try await stage.subject.destroySession()
                try await stage.start(0)
                guard try await stage.subject.localPublicKey() != first else { return .fail("localPublicKey survived destroySession") }
                return .pass("localPublicKey changed with the new session")
            },
            ScriptCase("BFT/KEY/BV-04", nodes: 2, brokenBy: [.keyNotStored]) { stage in
                let tester = try await stage.start(1, mode: .onDemand)
                let key = try await stage.nodes[1].localPublicKey()
                try await stage.start(0, mode: .onDemand)
                try await stage.subject.savePublicKey(key, forUser: tester)
                guard await stage.subject.existsKey(forUser: tester) else { return .fail("existsKeyForUser is false after savePublicKey") }
                return .pass("savePublicKey made existsKeyForUser true")
            },
            ScriptCase("BFT/KEY/BV-05", nodes: 2, brokenBy: [.keyNotStored]) { stage in
                let tester = try await stage.start(1, mode: .onDemand)
                let key = try await stage.nodes[1].localPublicKey()
                await stage.nodes[1].stop()
                try await stage.start(0)
                try await stage.subject.savePublicKey(key, forUser: tester)
                do {
                    let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                    return .pass("encrypted mesh send to a user never met accepted with the imported key (packet \(id))")
                } catch {
                    return .fail("encrypted mesh send with an imported key refused: \(error)")
                }
            },
            ScriptCase("BFT/KEY/BI-01", nodes: 1, brokenBy: [.keyAlwaysExists]) { stage in
                try await stage.start(0)
                guard await !stage.subject.existsKey(forUser: .random()) else { return .fail("existsKeyForUser is true for a user never met") }
                return .pass("existsKeyForUser is false for a user never met and never imported")
            },
            ScriptCase("BFT/KEY/BI-03", nodes: 2, brokenBy: [.keyReplacedSilently], judgesRefusals: true, keyConflict),
            ScriptCase("BFT/KEY/BI-02", nodes: 1, brokenBy: [.keyNotValidated]) { stage in
                try await stage.start(0)
                let user = UserID.random()
                let refused = (try? await stage.subject.savePublicKey("not a key!", forUser: user)) == nil
                let stored = await stage.subject.existsKey(forUser: user)
                guard !stored else { return .fail("a key that is not base64 was stored as usable") }
                return .pass(refused ? "savePublicKey refused a key that is not base64" : "the invalid key was not stored")
            },
        ]
    }

    /// BFT/KEY/BI-03 (bridgefy-ios-sdk-readme.md, "Export and import keys"): a key imported for a
    /// user with a different key on record does not replace it silently. The section has keys
    /// handed out by a third party and encrypted content then sent with them; it does not say
    /// what a second, different key for the same user does. Taken without a word, whoever hands
    /// out keys could redirect what is encrypted for that user: the conflict must be refused for
    /// the reason the profile names (`bridgefy.refusals.key_conflict`) or reported as a key
    /// conflict. Importing the very same key again is no conflict and must be accepted.
    @Sendable static func keyConflict(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let tester = try await stage.start(1, mode: .onDemand)
        let testerKey = try await stage.nodes[1].localPublicKey()
        try await stage.start(0, mode: .onDemand)
        // A second valid key: the subject's own, which is not the tester's.
        let otherKey = try await stage.subject.localPublicKey()
        guard otherKey != testerKey else { throw StageFailure(.tester, "the subject and the tester have the same public key") }
        do {
            try await stage.subject.savePublicKey(testerKey, forUser: tester)
        } catch {
            return .fail("the first import of the tester's key was refused: \(error)")
        }
        do {
            try await stage.subject.savePublicKey(testerKey, forUser: tester)
        } catch {
            return .fail("importing the key on record again was refused as if it conflicted: \(error)")
        }
        do {
            try await stage.subject.savePublicKey(otherKey, forUser: tester)
        } catch {
            return try stage.judgeRefusal(error, of: "a different key for a user with a key on record", by: [.keyConflict])
        }
        // Not refused: it may still be reported, as the engine reports a conflicting handshake.
        if await stage.logs[0].first(within: .seconds(2), where: { $0 == .keyConflict(tester) }) != nil {
            return .pass("a different key for a user with a key on record was reported as a key conflict; the same key again was accepted")
        }
        return .fail("a different key for a user with a key on record was taken silently: neither refused nor reported as a key conflict")
    }

    /// BFT/KEY/BV-02: the key is the same on every call, and another process of the
    /// implementation on the same session (the provider starts it, e.g. `blueproof dut
    /// --no-radio` on the node's session directory, driven through the control protocol)
    /// reports the same key. A restart inside one process would not show the key was kept
    /// anywhere but in memory.
    @Sendable static func keyAcrossProcesses(_ stage: TransmitterStage) async throws -> CaseOutcome {
        try await stage.start(0)
        let first = try await stage.subject.localPublicKey()
        let again = try await stage.subject.localPublicKey()
        guard first == again else { return .fail("localPublicKey changed between two calls of one session") }
        guard let provider = stage.context.transmitterProvider else { throw StageFailure(.tester, "no transmitter provider") }
        let other: any TransmitterControl
        do {
            other = try await provider.otherProcess(sharingSessionOf: 0, for: stage.context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable("no second process of the implementation: \(unavailable.reason)")
        }
        do {
            try await other.start(mode: .automatic)
        } catch {
            return .fail("a second process on the same session did not start: \(error)")
        }
        let second: String
        do {
            second = try await other.localPublicKey()
        } catch {
            return .fail("a second process on the same session has no public key: \(error)")
        }
        await other.stop()
        guard second == first else {
            return .fail("another process on the same session reports another public key (…\(second.suffix(16)), this one …\(first.suffix(16)))")
        }
        return .pass("localPublicKey is the same on every call and in another process on the same session")
    }
}
