import BlueproofTransmitter

/// Log levels (bridgefy-ios-sdk-readme.md, "Log levels"): error, info, debug and trace, each
/// level writing the lines of the levels below it as well. The subject's lines are its `log`
/// events; where the runner also sees what the subject prints (its own reference transmitters,
/// `TransmitterConsole`), every reported line must have been printed, and nothing printed may
/// be above the level. Each case sets a level, runs the same script (start, connect, secure
/// connection, a direct and a mesh send, stop) and judges which levels' lines appeared.
enum LogCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/LOG/BV-03", nodes: 2, brokenBy: [.logLevelIgnored]) { stage in
                if let outcome = await unobservable(stage) { return outcome }
                let (lines, _, printed) = try await script(stage, level: .error)
                if let shown = lines.first(where: { $0.level != .error }) {
                    return .fail("at error a \(shown.level.name) line was written: \(shown.text)")
                }
                if let unprinted = judgePrinted(lines, printed: printed, level: .error) { return unprinted }
                // The channel must work, or "only errors" cannot be told from "nothing at all".
                try await stage.start(0)
                await stage.subject.setLogLevel(.info)
                await stage.subject.stop()
                let info = await stage.logs[0].first(within: stage.airTimeout) { if case .log(.info, _) = $0 { true } else { false } }
                await stage.subject.setLogLevel(.error)
                guard info != nil else {
                    return .inconclusive("no line of any level came from the subject, even at info: its log is not observable")
                }
                return .pass("at error no other level's line was written (\(lines.count) error lines); at info lines appear")
            },
            levelCase("BFT/LOG/BV-04", level: .info, brokenBy: [.logLevelIgnored]),
            levelCase("BFT/LOG/BV-05", level: .debug, brokenBy: [.logLevelIgnored]),
            levelCase("BFT/LOG/BV-06", level: .trace, brokenBy: [.logSilent]),
        ]
    }

    /// At `level`: lines of that level appear, and none of a level above it.
    static func levelCase(_ id: CaseID, level: TransmitterLogLevel, brokenBy: Set<Defect>) -> ScriptCase {
        ScriptCase(id, nodes: 2, brokenBy: brokenBy) { stage in
            if let outcome = await unobservable(stage) { return outcome }
            let (lines, mesh, printed) = try await script(stage, level: level)
            if let above = lines.first(where: { $0.level > level }) {
                return .fail("at \(level.name) a \(above.level.name) line was written: \(above.text)")
            }
            if let unprinted = judgePrinted(lines, printed: printed, level: level) { return unprinted }
            let own = lines.filter { $0.level == level }
            guard let example = own.first else {
                return .fail("at \(level.name) no \(level.name) line was written (start, connection, secure connection, a direct and a mesh send, stop)")
            }
            // "Full traces of mesh packets": the mesh packet is named in a trace line.
            if level == .trace, !own.contains(where: { $0.text.lowercased().contains(mesh.uuidString.lowercased()) }) {
                return .fail("at trace no trace line names the mesh packet \(mesh)")
            }
            return .pass("at \(level.name): \(own.count) \(level.name) lines (e.g. \(example.text)), none above")
        }
    }

    /// Not applicable when the subject cannot show its log lines (control protocol 1).
    static func unobservable(_ stage: TransmitterStage) async -> CaseOutcome? {
        guard await !stage.subject.reportsLogLines() else { return nil }
        return .notApplicable("the implementation speaks control protocol 1, which carries no log lines (docs/control-protocol.md, \"Versions\")")
    }

    struct Line: Equatable { var level: TransmitterLogLevel; var text: String }

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

    /// Sets `level`, runs the script and returns the subject's lines once it has stopped, the
    /// id of its mesh packet, and the lines it printed when the provider sees them.
    static func script(_ stage: TransmitterStage, level: TransmitterLogLevel) async throws
        -> (lines: [Line], mesh: PacketID, printed: [Line]?) {
        await stage.subject.setLogLevel(level)
        let (subject, tester) = try await stage.connectedPair()
        try await stage.secure(0, with: tester)
        let text: [String: TransmitterValue] = ["text": .string("blueproof log levels")]
        let direct = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
        let mesh = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: [.meshTransmission, .encrypted])
        for id in [direct, mesh] {
            guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
                throw StageFailure(.tester, "packet \(id) never reached the tester, so the log of a delivery cannot be judged")
            }
        }
        await stage.subject.stop()
        _ = try await stage.wait(0, for: "stopped", precondition: .start) { $0 == .stopped }
        // The level is process-wide: leave the default for whatever runs next.
        await stage.subject.setLogLevel(.error)
        let lines = stage.logs[0].events.compactMap { event in
            if case let .log(level, text) = event { Line(level: level, text: text) } else { nil }
        }
        let printed = stage.context.transmitterProvider?.console.map { console in
            console.lines(for: subject).compactMap { line in
                TransmitterLogLevel.allCases.first { $0.swiftLogLevel == line.level }.map { Line(level: $0, text: line.text) }
            }
        }
        return (lines, mesh, printed)
    }
}
