import BlueproofTransmitter
import Foundation

/// A man in the middle on the key exchange (breaking-bridgefy-2021, "Man in the middle";
/// docs/security.md, "Key exchange man in the middle"). The SDK readme's "Secure connections"
/// promises end-to-end encryption once two users exchanged keys; a relay on the link that swaps
/// the key in a keyRequest for its own must not leave the subject holding the relay's key for the
/// honest user nor reporting a secure connection with it (BI-13). A relay that withholds the
/// subject's keyRequest must leave it with no secure connection (BI-18), and one that answers in
/// the peer's name with its own key must be refused (BI-19). The tester node plays the relay by
/// withholding the key requests it gets (`RawFrameAttacker.withholdKeyRequests`), so its honest
/// answer never races the forged one.
enum KeyExchangeAttackCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/ATK/BI-13", nodes: 2, brokenBy: [.keyNotBoundToUser]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                let relay = try RawFrameAttacker(stage, node: 1)
                guard await !stage.subject.existsKey(forUser: tester) else {
                    throw StageFailure(.freshSession, "the subject held a key for the tester before the attack")
                }
                let mark = stage.logs[0].events.count
                // The honest user's keyRequest as the relay rewrote it: the honest user's id, the
                // relay's key, signed by the relay's key (the signature checks out; the id does not).
                if let failure = try await substituteRefused(.keyRequest, stage, relay: relay, subject: subject, tester: tester, from: mark) {
                    return .fail(failure)
                }
                // The honest exchange still works: the subject ends with the honest user's key.
                try await stage.secure(1, with: subject)
                guard await stage.logs[0].first(within: stage.airTimeout, from: mark, where: { $0 == .secureConnection(tester) }) != nil else {
                    return .fail("after refusing the rewritten keyRequest the subject never reported the honest secure connection with \(tester.shortName)")
                }
                return .pass("a keyRequest for \(tester.shortName) carrying a relay's key was refused; the honest exchange that followed was reported secure")
            },
            ScriptCase("BFT/ATK/BI-18", nodes: 2, brokenBy: [.secureWithoutResponse], judgesRefusals: true,
                       quietWindow: SecureAnswerCases.unaskedHandshakeWindow) { stage in
                let (subject, tester) = try await stage.connectedPair()
                let relay = try RawFrameAttacker(stage, node: 1)
                let mark = try await withheldRequest(stage, relay: relay, subject: subject, tester: tester)
                // Nothing answers: the subject has no key for the tester, so no secure connection.
                let window = SecureAnswerCases.unaskedHandshakeWindow
                if await stage.logs[0].first(within: window, from: mark, where: { $0 == .secureConnection(tester) }) != nil {
                    return .fail("the subject reported a secure connection with \(tester.shortName), whose answer the relay withheld")
                }
                let refused = try await SecureAnswerCases.encryptedRefused(stage, to: tester, after: "a keyRequest the relay withheld")
                guard refused.verdict == .pass else { return refused }
                if let failure = try await honestExchange(stage, relay: relay, subject: subject, tester: tester) { return .fail(failure) }
                return .pass("\(refused.reason); once the relay let requests through, the honest exchange was reported secure")
            },
            ScriptCase("BFT/ATK/BI-19", nodes: 2, brokenBy: [.responseKeyNotBoundToUser, .keyNotBoundToUser]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                let relay = try RawFrameAttacker(stage, node: 1)
                let mark = try await withheldRequest(stage, relay: relay, subject: subject, tester: tester)
                if stage.logs[0].events.dropFirst(mark).contains(.secureConnection(tester)) {
                    return .fail("the subject reported a secure connection with \(tester.shortName) before any keyResponse arrived")
                }
                // The relay answers in the honest user's name with its own key, signed by that key.
                if let failure = try await substituteRefused(.keyResponse, stage, relay: relay, subject: subject, tester: tester, from: mark) {
                    return .fail(failure)
                }
                if let failure = try await honestExchange(stage, relay: relay, subject: subject, tester: tester) { return .fail(failure) }
                return .pass("a keyResponse for \(tester.shortName) carrying a relay's key was refused; the honest exchange that followed was reported secure")
            },
        ]
    }

    /// The start shared by BI-18 and BI-19: the subject, holding no key for the tester, starts a
    /// secure connection, and the relay withholds its keyRequest from the tester.
    /// Returns the subject's event count before it started.
    static func withheldRequest(_ stage: TransmitterStage, relay: RawFrameAttacker, subject: UserID,
                                tester: UserID) async throws -> Int {
        guard await !stage.subject.existsKey(forUser: tester) else {
            throw StageFailure(.freshSession, "the subject held a key for the tester before the attack")
        }
        let requests = await relay.withholdKeyRequests()
        let mark = stage.logs[0].events.count
        do {
            try await stage.subject.establishSecureConnection(with: tester)
        } catch {
            throw StageFailure(.secureConnection, "the subject could not start a secure connection with the connected tester: \(error)")
        }
        try await relay.withheldRequest(from: subject, on: requests)
        return mark
    }

    /// The relay stops withholding; the subject starts a secure connection again, which must be
    /// reported within the air timeout. Nil when it was, else why the case fails.
    static func honestExchange(_ stage: TransmitterStage, relay: RawFrameAttacker, subject: UserID, tester: UserID) async throws -> String? {
        await relay.answerKeyRequests()
        let mark = stage.logs[0].events.count
        do {
            try await stage.subject.establishSecureConnection(with: tester)
        } catch {
            return "after the attack the subject refused to start a secure connection with the connected \(tester.shortName): \(error)"
        }
        guard await stage.logs[0].first(within: stage.airTimeout, from: mark, where: { $0 == .secureConnection(tester) }) != nil else {
            return "after the attack the subject never reported the honest secure connection with \(tester.shortName)"
        }
        return nil
    }

    /// The relay sends a key exchange frame of `kind` naming `tester`, carrying the relay's key,
    /// signed by it; then the tester's honest packet. Nil when the subject neither reported a
    /// secure connection with the tester (from event `mark` on) nor took the key, and still
    /// delivered; else why the case fails. A subject that took the relay's key may then drop the
    /// honest user's frames as a key conflict: the breach is reported before the stall it causes.
    static func substituteRefused(_ kind: FrameKind, _ stage: TransmitterStage, relay: RawFrameAttacker, subject: UserID,
                                  tester: UserID, from mark: Int) async throws -> String? {
        let frame = try keyExchange(kind, naming: tester, signer: relay.keys)
        try await relay.send(frame.encoded(), to: subject, what: "a \(kind) for \(tester.shortName) carrying the relay's key")
        let stalled = try await relay.honestPacket(to: subject)
        if stage.logs[0].events.dropFirst(mark).contains(.secureConnection(tester)) {
            return "the subject reported a secure connection with \(tester.shortName) on a \(kind) carrying another user's key"
        }
        if await stage.subject.existsKey(forUser: tester) {
            return "the subject holds a key for \(tester.shortName) taken from a \(kind) carrying another user's key"
        }
        return stalled
    }

    /// A key exchange frame of `kind` naming `user`, carrying `signer`'s key, signed by it.
    static func keyExchange(_ kind: FrameKind, naming user: UserID, signer: TransmitterIdentity) throws -> TransmitterFrame {
        let frame: KeyExchangeFrame
        do { frame = try KeyExchangeFrame.signed(kind, naming: user, by: signer) } catch {
            throw StageFailure(.tester, "the relay could not sign its \(kind): \(error)")
        }
        return kind == .keyRequest ? .keyRequest(frame) : .keyResponse(frame)
    }
}
