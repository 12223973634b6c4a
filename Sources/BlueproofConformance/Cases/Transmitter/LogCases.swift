import BlueproofTransmitter

/// Log levels (bridgefy-ios-sdk-readme.md, "Log levels"): error, info, debug and trace, raw
/// values 0 to 3, each level writing the lines of the levels below it as well; `Error` until
/// `setLogLevel`. The subject's lines are its `log` events; where the runner also sees what the
/// subject prints (its own reference transmitters, `TransmitterConsole`), every reported line
/// must have been printed, and nothing printed may be above the level. Each case sets a level
/// (or none), runs the same script (start, connect, secure connection, a direct and a mesh
/// send, stop) and judges which levels' lines appeared.
enum LogCases {
    static func all() -> [ScriptCase] {
        ([
            ScriptCase("BFT/LOG/BV-03", nodes: 2, brokenBy: [.logLevelIgnored]) { stage in
                try await errorsOnly(stage, at: "error") { await $0.setLogLevel(.error) }
            },
            levelCase("BFT/LOG/BV-04", level: .info, brokenBy: [.logLevelIgnored]),
            levelCase("BFT/LOG/BV-05", level: .debug, brokenBy: [.logLevelIgnored]),
            levelCase("BFT/LOG/BV-06", level: .trace, brokenBy: [.logSilent]),
        ] + LogLevelRules.all()).map { item in
            var item = item
            item.processWideState = processWideState
            return item
        }
    }

    /// Why every LOG case runs alone: the level it sets is the process's, and what the
    /// transmitters print goes to the run's one console.
    static let processWideState = "it sets the transmitters' log level, which is process-wide (bridgefy-ios-sdk-readme.md, \"Log levels\"), and judges what they print to the run's one console"

    /// At `level`: lines of that level appear, and none of a level above it.
    static func levelCase(_ id: CaseID, level: TransmitterLogLevel, brokenBy: Set<Defect>) -> ScriptCase {
        ScriptCase(id, nodes: 2, brokenBy: brokenBy) { stage in
            if let outcome = await unobservable(stage) { return outcome }
            let run = try await script(stage) { await $0.setLogLevel(level) }
            return judge(run, at: level)
        }
    }

    /// `pass` when `run` wrote lines of `level` and none above it (at trace, one naming the
    /// mesh packet: "full traces of mesh packets"), `fail` otherwise.
    static func judge(_ run: Run, at level: TransmitterLogLevel) -> CaseOutcome {
        if let above = run.lines.first(where: { $0.level > level }) {
            return .fail("at \(level.name) a \(above.level.name) line was written: \(above.text)")
        }
        if let unprinted = judgePrinted(run.lines, printed: run.printed, level: level) { return unprinted }
        let own = run.lines.filter { $0.level == level }
        guard let example = own.first else {
            return .fail("at \(level.name) no \(level.name) line was written (start, connection, secure connection, a direct and a mesh send, stop)")
        }
        if level == .trace, !own.contains(where: { $0.text.lowercased().contains(run.mesh.uuidString.lowercased()) }) {
            return .fail("at trace no trace line names the mesh packet \(run.mesh)")
        }
        return .pass("at \(level.name): \(own.count) \(level.name) lines (e.g. \(example.text)), none above")
    }

    /// The script after `set`, judged as "only errors are written"; then, as the channel must
    /// work or "only errors" cannot be told from "nothing at all", the subject at info must
    /// write an info line. `what` names the level in force for the report.
    static func errorsOnly(_ stage: TransmitterStage, at what: String,
                           set: @escaping @Sendable (any TransmitterControl) async -> Void) async throws -> CaseOutcome {
        if let outcome = await unobservable(stage) { return outcome }
        let run = try await script(stage, set: set)
        if let shown = run.lines.first(where: { $0.level != .error }) {
            return .fail("at \(what) a \(shown.level.name) line was written: \(shown.text)")
        }
        if let unprinted = judgePrinted(run.lines, printed: run.printed, level: .error) { return unprinted }
        try await stage.start(0)
        await stage.subject.setLogLevel(.info)
        await stage.subject.stop()
        let info = await stage.logs[0].first(within: stage.airTimeout) { if case .log(.info, _) = $0 { true } else { false } }
        await stage.subject.setLogLevel(.error)
        guard info != nil else {
            return .inconclusive("no line of any level came from the subject, even at info: its log is not observable")
        }
        return .pass("at \(what) no other level's line was written (\(run.lines.count) error lines); at info lines appear")
    }

    /// Not applicable when the subject cannot show its log lines (control protocol 1).
    static func unobservable(_ stage: TransmitterStage) async -> CaseOutcome? {
        guard await !stage.subject.reportsLogLines() else { return nil }
        return .notApplicable("the implementation speaks control protocol 1, which carries no log lines (docs/control-protocol.md, \"Versions\")")
    }

    struct Line: Equatable { var level: TransmitterLogLevel; var text: String }

    /// One run of the script: the subject's lines, the id of its mesh packet, and the lines it
    /// printed when the provider sees them.
    struct Run { var lines: [Line]; var mesh: PacketID; var printed: [Line]? }

    /// When the subject's printed lines are known: `fail` for a reported line it did not print
    /// (at its level), or a printed line above `level`; nil when they agree.
    static func judgePrinted(_ lines: [Line], printed: [Line]?, level: TransmitterLogLevel) -> CaseOutcome? {
        guard let printed else { return nil }
        if let above = printed.first(where: { $0.level > level }) {
            return .fail("at \(level.name) a \(above.level.name) line was printed: \(above.text)")
        }
        if let missing = lines.first(where: { !printed.contains($0) }) {
            return .fail("the subject reported a \(missing.level.name) line it never printed: \(missing.text)")
        }
        return nil
    }

    /// Calls `set` on the subject, runs the script and returns what the subject wrote during it
    /// once it has stopped. Runs again on the same stage (a restart): only this run's lines
    /// count. The level is process-wide: unless `keepLevel`, the default (error) is in force
    /// again afterwards.
    static func script(_ stage: TransmitterStage, keepLevel: Bool = false,
                       set: @Sendable (any TransmitterControl) async -> Void) async throws -> Run {
        let mark = stage.logs[0].events.count
        let again = await stage.subject.localUser()
        let printedBefore = again.flatMap { user in stage.context.transmitterProvider?.console?.lines(for: user).count } ?? 0
        await set(stage.subject)
        let (subject, tester) = again == nil ? try await stage.connectedPair() : try await stage.restartedPair()
        try await stage.secure(0, with: tester)
        let text: [String: TransmitterValue] = ["text": .string("blueproof log levels")]
        let direct = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
        let mesh = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: [.meshTransmission, .encrypted])
        for id in [direct, mesh] {
            guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
                throw StageFailure(.tester, "packet \(id) never reached the tester, so the log of a delivery cannot be judged")
            }
        }
        try await stage.stopSubject(seenBy: (1, subject))
        if !keepLevel { await stage.subject.setLogLevel(.error) }
        let lines = stage.logs[0].events.dropFirst(mark).compactMap { event in
            if case let .log(level, text) = event { Line(level: level, text: text) } else { nil }
        }
        let printed = stage.context.transmitterProvider?.console.map { console in
            console.lines(for: subject).dropFirst(printedBefore).compactMap { line in
                TransmitterLogLevel.allCases.first { $0.swiftLogLevel == line.level }.map { Line(level: $0, text: line.text) }
            }
        }
        return Run(lines: lines, mesh: mesh, printed: printed)
    }
}
