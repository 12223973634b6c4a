import BlueproofTransmitter
import Foundation

/// Whether a connection is secure (bridgefy-ios-sdk-readme.md, "Secure connections"): the app's
/// answer to shouldConnectSecurelyWithUser decides whether a new connection gets a secure one,
/// and a connection is reported secure only after a handshake or while an earlier secure
/// connection has not expired.
enum SecureAnswerCases {
    /// How long a connection is watched for a secure connection nobody asked for: a handshake
    /// an implementation starts on connecting is one exchange of keys, done within seconds.
    static let unaskedHandshakeWindow: Duration = .seconds(5)

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/SEC/BV-01", nodes: 2, brokenBy: [.secureAnswerIgnored]) { stage in
                guard await stage.subject.answerSecureConnections(true) else { return noAnswerCommand }
                let (_, tester) = try await stage.connectedPair()
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .secureConnection(tester) }) != nil else {
                    return .fail("the app answered yes to shouldConnectSecurelyWithUser, but no didDetectSecureConnectionWithUser followed the connection within \(stage.airTimeout)")
                }
                return .pass("answering yes to shouldConnectSecurelyWithUser led to a secure connection with \(tester.shortName) on connecting")
            },
            ScriptCase("BFT/SEC/BI-01", nodes: 2, brokenBy: [.handshakeOnEveryConnection], judgesRefusals: true,
                       quietWindow: unaskedHandshakeWindow) { stage in
                guard await stage.subject.answerSecureConnections(false) else { return noAnswerCommand }
                let (_, tester) = try await stage.connectedPair()
                if let secure = await unaskedSecureConnection(stage, with: tester, from: 0) {
                    return .fail("the app answered no to shouldConnectSecurelyWithUser, yet \(secure)")
                }
                return try await encryptedRefused(stage, to: tester, after: "answering no to shouldConnectSecurelyWithUser")
            },
            ScriptCase("BFT/SEC/BV-15", nodes: 2, brokenBy: [.connectionReportedSecure], judgesRefusals: true,
                       quietWindow: unaskedHandshakeWindow) { stage in
                // Answer no where the implementation takes an answer; otherwise its own delegate
                // decides, and a handshake it starts is not a connection reported secure without one.
                _ = await stage.subject.answerSecureConnections(false)
                let (subject, tester) = try await stage.connectedPair()
                if await stage.logs[0].first(within: unaskedHandshakeWindow, where: { $0 == .secureConnection(tester) }) != nil {
                    if stage.logs[1].contains(where: { $0 == .secureConnection(subject) }) {
                        return .notApplicable("the implementation made a secure connection on connecting (its delegate answered yes), so no plain connection was left to judge")
                    }
                    return .fail("a plain first connection was reported secure (didDetectSecureConnectionWithUser), though the tester took part in no handshake")
                }
                return try await encryptedRefused(stage, to: tester, after: "a plain first connection")
            },
        ]
    }

    /// The verdict when the implementation cannot be given the delegate's answer.
    static let noAnswerCommand = CaseOutcome.notApplicable(
        "the implementation cannot be given the app's answer to shouldConnectSecurelyWithUser: the control protocol has no command for it")

    /// A secure connection with `user` reported by either side from event `start` on, within
    /// ``unaskedHandshakeWindow``, described; nil if none.
    static func unaskedSecureConnection(_ stage: TransmitterStage, with user: UserID, from start: Int) async -> String? {
        let subjectSaw = await stage.logs[0].first(within: unaskedHandshakeWindow, from: start) { $0 == .secureConnection(user) }
        if subjectSaw != nil { return "the subject reported a secure connection with \(user.shortName)" }
        let testerSaw = stage.logs[1].contains { if case .secureConnection = $0 { true } else { false } }
        return testerSaw ? "the tester took part in a secure connection with the subject" : nil
    }

    /// An encrypted direct send to `tester` must be refused for want of a secure connection.
    static func encryptedRefused(_ stage: TransmitterStage, to tester: UserID, after what: String) async throws -> CaseOutcome {
        let text: [String: TransmitterValue] = ["text": .string("blueproof plain")]
        do {
            let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: [.encrypted, .directTransmission])
            return .fail("after \(what), an encrypted send to the tester was accepted (packet \(id)) with no secure connection made")
        } catch {
            let judged = try stage.judgeRefusal(error, of: "an encrypted send after \(what)", by: [.noSecureConnection])
            guard judged.verdict == .pass else { return judged }
            return .pass("no secure connection for \(unaskedHandshakeWindow) after \(what); \(judged.reason)")
        }
    }
}
