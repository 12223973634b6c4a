import BlueproofTransmitter
import Foundation

/// Impersonation by data frame (breaking-bridgefy-2021, "Impersonation"; docs/security.md,
/// "Impersonation by data frame"). The SDK readme's "Secure connections" and "4. Send data" have
/// every received packet name its sender; a frame the attacker signed with its own key and
/// naming another user must not be delivered as that user's, and a frame whose signature does
/// not verify may not make the subject report a key conflict for a user it knows.
enum ImpersonationCases {
    static let forged: [String: TransmitterValue] = ["text": .string("blueproof forged sender")]

    static func all() -> [ScriptCase] {
        [
            // A sender the subject never met: no key on record to compare with.
            ScriptCase("BFT/ATK/BI-10", nodes: 2, brokenBy: [.senderNotBoundToKey]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let victim = try RawFrameAttacker.freshKeys().userID
                return try await forge(attacker, claiming: victim, to: subject, known: false)
            },
            // A sender the subject met: its key is on record (imported, as "Export and import keys" allows).
            ScriptCase("BFT/ATK/BI-11", nodes: 2, brokenBy: [.senderNotBoundToKey, .keyReplacedSilently]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let victim = try await knownVictim(stage)
                return try await forge(attacker, claiming: victim, to: subject, known: true)
            },
            // Encrypted to the subject, sender and signature sealed inside: checked once opened.
            // Two forgeries claiming a user never met: signed by the attacker's key (the id does not
            // derive from it), and carrying the victim's own key with no valid signature. Then a
            // frame the attacker seals in its own name, on the same link, must be delivered: the
            // forgeries were refused for their sender, not because sealed frames from strangers are.
            ScriptCase("BFT/ATK/BI-20", nodes: 2, brokenBy: [.sealedSenderUnchecked]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let exported = try await stage.subject.localPublicKey()
                guard let key = try? PublicKeyBundle(base64: exported) else {
                    return .fail("the subject's exported key (localPublicKey) does not read as a key bundle")
                }
                let victim = try RawFrameAttacker.freshKeys()
                let payload = try RawFrameAttacker.payload(forged)
                let forgeries = [
                    ("signed with the attacker's key", try attacker.dataFrame(claiming: victim.userID, to: subject, signer: attacker.keys, payload: payload, sealedTo: key)),
                    ("carrying the victim's key, unsigned", try attacker.dataFrame(claiming: victim.userID, to: subject, signer: victim, validSignature: false,
                                                                                 payload: payload, sealedTo: key)),
                ]
                let own = try attacker.dataFrame(claiming: attacker.keys.userID, to: subject, signer: attacker.keys, payload: payload, sealedTo: key)
                try await attacker.send(forgeries.map { TransmitterFrame.data($0.1).encoded() } + [TransmitterFrame.data(own).encoded()], to: subject,
                                        what: "two sealed data frames claiming \(victim.userID.shortName), then one in its own name")
                // Frames on one link are dealt with in order: once the last is delivered, so would the forgeries be.
                guard await stage.logs[0].received(own.packetID, within: stage.airTimeout) != nil else {
                    return .fail("a sealed data frame the attacker signed in its own name was not delivered within \(stage.airTimeout): the subject drops sealed frames from users it has no secure connection with, so the forgeries' refusal shows nothing")
                }
                if let (what, _) = forgeries.first(where: { attacker.delivered($0.1.packetID) }) {
                    return .fail("a sealed data frame \(what) was delivered as sent by \(victim.userID.shortName), a user the subject never met")
                }
                if let stalled = try await attacker.honestPacket(to: subject) { return .fail(stalled) }
                return .pass("two sealed data frames claiming \(victim.userID.shortName), a user the subject never met (signed by the attacker; the victim's key unsigned), were not delivered; one sealed in the attacker's own name was")
            },
            // An unsigned frame in a known user's name: no keyConflict, no delivery.
            ScriptCase("BFT/ATK/BI-12", nodes: 2, brokenBy: [.keyConflictBeforeSignature]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let victim = try await knownVictim(stage)
                let mark = stage.logs[0].events.count
                let frame = try attacker.dataFrame(claiming: victim, to: subject, signer: attacker.keys, validSignature: false,
                                                   payload: RawFrameAttacker.payload(forged))
                try await attacker.send(TransmitterFrame.data(frame).encoded(), to: subject, what: "an unsigned data frame claiming \(victim.shortName)")
                let stalled = try await attacker.honestPacket(to: subject)
                if stage.logs[0].events.dropFirst(mark).contains(.keyConflict(victim)) {
                    return .fail("a data frame whose signature does not verify made the subject report a key conflict for \(victim.shortName), a user it knows")
                }
                if attacker.delivered(frame.packetID) { return .fail("an unsigned data frame claiming \(victim.shortName) was delivered") }
                if let stalled { return .fail(stalled) }
                return .pass("an unsigned data frame claiming \(victim.shortName), whose key the subject holds, was dropped with no key conflict reported")
            },
        ]
    }

    /// A user of fresh keys whose key the subject imports (the API's "savePublicKey").
    static func knownVictim(_ stage: TransmitterStage) async throws -> UserID {
        let victim = try RawFrameAttacker.freshKeys()
        do {
            try await stage.subject.savePublicKey(victim.publicKeys.base64, forUser: victim.userID)
        } catch {
            throw StageFailure(.freshSession, "the subject did not take the victim's key: \(error)")
        }
        return victim.userID
    }

    /// Sends a frame signed with the attacker's key claiming `victim`, then an honest packet;
    /// passes when the forged one was not delivered as the victim's.
    static func forge(_ attacker: RawFrameAttacker, claiming victim: UserID, to subject: UserID, known: Bool) async throws -> CaseOutcome {
        let frame = try attacker.dataFrame(claiming: victim, to: subject, signer: attacker.keys, payload: RawFrameAttacker.payload(forged))
        try await attacker.send(TransmitterFrame.data(frame).encoded(), to: subject, what: "a data frame signed by its own key claiming \(victim.shortName)")
        let stalled = try await attacker.honestPacket(to: subject)
        let met = known ? "whose key it holds" : "it never met"
        if attacker.delivered(frame.packetID) {
            return .fail("a data frame signed with the attacker's key was delivered as sent by \(victim.shortName), a user \(met)")
        }
        if let stalled { return .fail(stalled) }
        return .pass("a data frame signed with the attacker's key and claiming \(victim.shortName), a user \(met), was not delivered")
    }
}
