import BlueproofTransmitter
import Foundation

/// Background mode (bridgefy-ios-sdk-readme.md, "Background mode"; bridgefy-chat-app-tutorial.md
/// enables it before starting): off by default, an error without a Bluetooth background mode
/// declared, and with it on the links survive the application moving to the background. The
/// application's `UIBackgroundModes` and its moves are the harness's calls (control protocol 3).
enum BackgroundCases {
    static let text: [String: TransmitterValue] = ["text": .string("blueproof background")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/LIFE/BV-08", nodes: 1, brokenBy: [.backgroundModeOnByDefault]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                let expected = try stage.context.profile.bool("bridgefy.lifecycle.background_mode_default")
                let before = await stage.subject.backgroundModeEnabled()
                try await stage.start(0)
                let after = await stage.subject.backgroundModeEnabled()
                guard before == expected, after == expected else {
                    return .fail("backgroundModeEnabled read \(before) before the start and \(after) after it, never set; the default is \(expected)")
                }
                return .pass("backgroundModeEnabled, never set, read \(expected) before and after the start")
            },
            ScriptCase("BFT/LIFE/BI-03", nodes: 1, brokenBy: [.backgroundModeUnchecked], judgesRefusals: true) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                await stage.subject.declareBackgroundModes([])
                do {
                    try await stage.subject.setBackgroundModeEnabled(true)
                    return .fail("background mode was enabled with no Bluetooth background mode declared")
                } catch {
                    return try stage.judgeRefusal(error, of: "background mode with no Bluetooth background mode declared", by: [.backgroundModeUndeclared])
                }
            },
            ScriptCase("BFT/LIFE/BV-09", nodes: 2, brokenBy: [.backgroundModeNotKept]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                let (_, tester) = try await stage.connectedPair()
                try await enable(stage)
                return try await survivesBackground(stage, tester: tester)
            },
            ScriptCase("CHAT/APP/BV-06", nodes: 2, brokenBy: [.startClearsBackgroundMode]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                let (_, running) = await ChatUnderTest.start(on: stage)
                defer { running.cancel() }
                // The tutorial's order: background mode on, then start.
                try await enable(stage)
                let (_, tester) = try await stage.connectedPair()
                guard await stage.subject.backgroundModeEnabled() else { return .fail("background mode enabled before the start was off once started") }
                return try await survivesBackground(stage, tester: tester)
            },
        ]
    }

    /// Declares the profile's Bluetooth background modes and enables background mode.
    static func enable(_ stage: TransmitterStage) async throws {
        let modes = try stage.context.profile.strings("bridgefy.lifecycle.background_mode_required_keys")
        await stage.subject.declareBackgroundModes(modes)
        do { try await stage.subject.setBackgroundModeEnabled(true) } catch {
            throw StageFailure(.start, "background mode could not be enabled with \(modes) declared: \(error)")
        }
    }

    /// The application moves to the background: the link with `tester` must still carry a
    /// direct send from the subject.
    static func survivesBackground(_ stage: TransmitterStage, tester: UserID) async throws -> CaseOutcome {
        await stage.subject.appMovedToBackground()
        let id: PacketID
        do {
            id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
        } catch {
            await stage.subject.appMovedToForeground()
            return .fail("with background mode on, in the background the link was gone: a direct send was refused (\(error))")
        }
        let arrived = await stage.logs[1].received(id, within: stage.airTimeout) != nil
        await stage.subject.appMovedToForeground()
        guard arrived else { return .fail("with background mode on, a direct send made in the background never arrived") }
        return .pass("with background mode on, the link survived the move to the background: a direct send there arrived")
    }

    /// Not applicable when the subject cannot be given the application's side (before control protocol 3).
    static func unavailable(_ stage: TransmitterStage) async -> CaseOutcome? {
        guard await !stage.subject.takesHarnessCalls() else { return nil }
        return .notApplicable("the implementation speaks a control protocol before 3, which has no background mode calls (docs/control-protocol.md, \"Versions\")")
    }
}
