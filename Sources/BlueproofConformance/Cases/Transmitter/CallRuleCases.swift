import BlueproofTransmitter
import Foundation

/// Rules of single calls judged end to end: a send's validation is over when the call returns
/// (bridgefy-ios-sdk-readme.md, "4. Send data"), and a key exported on one node serves another
/// to seal for it ("Export and import keys").
enum CallRuleCases {
    static let text: [String: TransmitterValue] = ["text": .string("blueproof calls")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/OPT/BV-19", nodes: 2, brokenBy: [.validationDeferred], judgesRefusals: true, synchronousValidation),
            ScriptCase("BFT/KEY/BV-06", nodes: 2, brokenBy: [.publicKeyRandomised], exportedKeyServes),
        ]
    }

    /// BFT/OPT/BV-19: a send the rules refuse (binary data in a broadcast) throws from the call,
    /// not later as didFailForPacket under a packet id it returned; one they accept returns the
    /// id its delivery then carries.
    @Sendable static func synchronousValidation(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (_, tester) = try await stage.connectedPair()
        let data = Data(repeating: 0x5A, count: 64)
        let refusal: CaseOutcome
        do {
            let id = try await stage.subject.send(dictionary: nil, data: data, to: nil, options: .broadcastReceiver)
            let failed = await stage.logs[0].first(within: stage.airTimeout) { if case .failed(id, _) = $0 { true } else { false } }
            return .fail("binary data in a broadcast returned packet id \(id)" + (failed.map { "; its refusal came afterwards: \($0)" } ?? ""))
        } catch {
            refusal = try stage.judgeRefusal(error, of: "binary data in a broadcast", by: [.binaryInBroadcast])
        }
        guard refusal.verdict == .pass else { return refusal }
        let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
        guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
            return .fail("the accepted send returned packet id \(id), which never reached the tester")
        }
        return .pass("the refusal came from the call itself; the accepted send returned packet id \(id), the id it arrived with")
    }

    /// BFT/KEY/BV-06: the subject exports its key and stops; the tester, never having met it,
    /// imports the key and sends an encrypted mesh packet to it, held until the subject starts
    /// again. The subject must open it: the key it exported is the key it decrypts with.
    @Sendable static func exportedKeyServes(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let subject = try await stage.start(0)
        let key = try await stage.subject.localPublicKey()
        try await stage.stopSubject()
        try await stage.start(1)
        do {
            try await stage.nodes[1].savePublicKey(key, forUser: subject)
        } catch {
            return .fail("the tester could not import the key the subject exported: \(error)")
        }
        let id = try await stage.send(from: 1, dictionary: text, to: subject, options: [.encrypted, .meshTransmission])
        try await stage.start(0)
        guard let packet = await stage.logs[0].received(id, within: stage.airTimeout) else {
            return .fail("the tester's packet \(id), sealed with the key the subject exported, never reached the subject opened")
        }
        guard packet.encrypted, packet.dictionary == text else {
            return .fail("packet \(id) arrived with encrypted \(packet.encrypted), dictionary \(packet.dictionary.map { "\($0)" } ?? "nil")")
        }
        return .pass("sealed by the tester with the imported key, packet \(id) arrived at the subject encrypted and opened equal")
    }
}
