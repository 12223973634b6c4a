import BlueproofTransmitter
import Foundation

/// What a transmitter shows of itself: nothing before it starts (bridgefy-ios-sdk-readme.md,
/// "2. Start transmitter": the default state is stopped), and a user id that is a UUID string
/// (bridgefy-chat-app-tutorial.md).
enum PresenceCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/LIFE/BV-01", nodes: 3, brokenBy: [.presentBeforeStart], stoppedUntilStart),
            ScriptCase("BFT/CON/BV-04", nodes: 2, brokenBy: [.userIDNotUUID]) { stage in
                // Not `stage.start`: it reads the id as a UUID, and this case judges whether it is one.
                do { try await stage.subject.start(mode: .automatic) } catch { throw StageFailure(.start, "the subject did not start: \(error)") }
                guard let text = await stage.subject.localUserText() else { throw StageFailure(.start, "the subject started without a user id") }
                guard let user = UserID(text), text.count == 36 else { return .fail("the subject's user id \"\(text)\" is not a UUID string") }
                try await stage.start(1)
                guard await stage.logs[1].first(within: stage.airTimeout, where: { $0 == .connected(user) }) != nil else {
                    return .fail("the tester never met the subject under its id \(text)")
                }
                return .pass("the subject's user id is the UUID string \(text), the id the tester met it under")
            },
        ]
    }

    /// BFT/LIFE/BV-01: two on-demand testers (they report whoever advertises, and connect to
    /// no one) and the subject, made but not started. Once tester 1 has detected tester 2, it has
    /// been scanning while both others could advertise: it must have detected no one else. Then
    /// the subject starts, and tester 1 must detect it: the only newcomer is the subject.
    @Sendable static func stoppedUntilStart(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let first = try await stage.start(1, mode: .onDemand)
        let second = try await stage.start(2, mode: .onDemand)
        _ = try await stage.wait(1, for: "tester 2 nearby") { $0 == .nearbyUser(second) }
        _ = try await stage.wait(2, for: "tester 1 nearby") { $0 == .nearbyUser(first) }
        let seenBefore = stage.logs[1].events.compactMap { if case .nearbyUser(let user) = $0, user != second { user } else { nil } }
        guard seenBefore.isEmpty else {
            return .fail("before its start the subject was on the air: the tester detected \(seenBefore.map(\.description))")
        }
        let mark = stage.logs[1].events.count
        let subject = try await stage.start(0, mode: .onDemand)
        guard await stage.logs[1].first(within: stage.airTimeout, from: mark, where: { $0 == .nearbyUser(subject) }) != nil else {
            throw StageFailure(.connection, "the tester never detected the subject after its start: its absence before proves nothing")
        }
        return .pass("before its start the tester, which detected tester 2, detected nothing of the subject; after it, the subject appeared")
    }
}
