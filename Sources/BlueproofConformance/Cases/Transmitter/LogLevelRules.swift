import BlueproofTransmitter

/// The rules of bridgefy-ios-sdk-readme.md, "Log levels" beyond what each level writes
/// (LogCases): the raw values (error 0, info 1, debug 2, trace 3) and nothing else taken as a
/// level, `Error` until a level is set, and a level set before the transmitter runs holding
/// afterwards (bridgefy-chat-app-tutorial.md sets it before creating and starting one).
enum LogLevelRules {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/LOG/BI-01", nodes: 2, brokenBy: [.rawLogLevelUnbounded]) { stage in
                if let outcome = await untyped(stage) { return outcome }
                let taken = RawValues()
                let run = try await LogCases.script(stage) { subject in
                    await subject.setLogLevel(.info)
                    for raw in [4, -1] {
                        if await subject.setLogLevel(raw: raw) { await taken.add(raw) }
                    }
                }
                if let raw = await taken.values.first { return .fail("raw value \(raw) was accepted as a level") }
                let outcome = LogCases.judge(run, at: .info)
                guard outcome.verdict == .pass else { return .fail("after raw values 4 and -1 at info: \(outcome.reason)") }
                return .pass("raw values 4 and -1 were not taken as levels; info stayed in force: \(outcome.reason)")
            },
            ScriptCase("BFT/LOG/BV-01", nodes: 2, brokenBy: [.rawLogLevelsReversed], rawValues),
            ScriptCase("BFT/LOG/BV-02", nodes: 2, brokenBy: [.logDefaultInfo]) { stage in
                // The level is process-wide: the runner leaves the default in force after every
                // case that sets one, and an implementation under test is a fresh process per case.
                try await LogCases.errorsOnly(stage, at: "the default level") { _ in }
            },
            ScriptCase("BFT/LOG/BV-07", nodes: 1, brokenBy: [.logLevelPerInstance], processWide),
            ScriptCase("BFT/LOG/BV-08", nodes: 2, brokenBy: [.restartResetsLogLevel]) { stage in
                if let outcome = await LogCases.unobservable(stage) { return outcome }
                let first = try await LogCases.script(stage, keepLevel: true) { await $0.setLogLevel(.debug) }
                let firstOutcome = LogCases.judge(first, at: .debug)
                guard firstOutcome.verdict == .pass else { return .fail("debug set before the start: \(firstOutcome.reason)") }
                let again = try await LogCases.script(stage) { _ in }
                let againOutcome = LogCases.judge(again, at: .debug)
                guard againOutcome.verdict == .pass else { return .fail("after a stop and a new start, debug no longer held: \(againOutcome.reason)") }
                return .pass("debug, set before the transmitter ran, held through its first run and a restart: \(againOutcome.reason)")
            },
        ]
    }

    /// BFT/LOG/BV-01: each raw value the profile gives (bridgefy.log.levels) sets its level,
    /// judged by the lines one run of the script writes at it.
    @Sendable static func rawValues(_ stage: TransmitterStage) async throws -> CaseOutcome {
        if let outcome = await untyped(stage) { return outcome }
        var seen: [String] = []
        for level in TransmitterLogLevel.allCases.reversed() {
            let raw = try stage.context.profile.int("bridgefy.log.levels.\(level.name)")
            let refused = RawValues()
            let run = try await LogCases.script(stage) { subject in
                if await !subject.setLogLevel(raw: raw) { await refused.add(raw) }
            }
            guard await refused.values.isEmpty else { return .fail("raw value \(raw) (\(level.name)) was not accepted as a level") }
            if level == .error {
                if let shown = run.lines.first(where: { $0.level != .error }) {
                    return .fail("at raw value \(raw) (error) a \(shown.level.name) line was written: \(shown.text)")
                }
            } else {
                let outcome = LogCases.judge(run, at: level)
                guard outcome.verdict == .pass else { return .fail("at raw value \(raw) (\(level.name)): \(outcome.reason)") }
            }
            seen.append("\(raw) \(level.name)")
        }
        return .pass("raw values set their levels: \(seen.joined(separator: ", "))")
    }

    /// BFT/LOG/BV-07: info set through the subject holds for another instance in its process,
    /// which writes its info line ("started") when it starts.
    @Sendable static func processWide(_ stage: TransmitterStage) async throws -> CaseOutcome {
        if let outcome = await LogCases.unobservable(stage) { return outcome }
        guard let provider = stage.context.transmitterProvider else { return .notApplicable("no transmitter provider") }
        let other: any TransmitterControl
        do {
            other = try await provider.anotherInstance(for: stage.context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable(unavailable.reason)
        }
        let log = await TransmitterEventLog.attach(to: other)
        await stage.subject.setLogLevel(.info)
        do { try await other.start(mode: .automatic) } catch {
            await stage.subject.setLogLevel(.error)
            throw StageFailure(.start, "the second instance did not start: \(error)")
        }
        let info = await log.first(within: stage.airTimeout) { if case .log(.info, _) = $0 { true } else { false } }
        await other.stop()
        await stage.subject.setLogLevel(.error)
        guard case .log(_, let line)? = info else {
            return .fail("info was set through one instance; another instance in the same process wrote no info line when it started")
        }
        return .pass("info set through one instance held for another in the same process: \(line)")
    }

    /// Not applicable when the subject cannot take a raw level (before control protocol 3).
    static func untyped(_ stage: TransmitterStage) async -> CaseOutcome? {
        if let outcome = await LogCases.unobservable(stage) { return outcome }
        guard await !stage.subject.takesHarnessCalls() else { return nil }
        return .notApplicable("the implementation speaks a control protocol before 3, which has no setLogLevel by raw value (docs/control-protocol.md, \"Versions\")")
    }

    /// Raw values the set-up closure saw go the unexpected way (taken, or refused).
    actor RawValues {
        private(set) var values: [Int] = []
        func add(_ raw: Int) { values.append(raw) }
    }
}
