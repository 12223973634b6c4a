import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofCheck
import Foundation

/// Runs the selected cases, up to ``RunConfiguration/jobs`` at once, each on a fresh topology,
/// and keeps the report written after every case, in catalogue order (docs/runner.md). A case that fails, errs, times out or loses its
/// controller does not stop the run; the next case gets fresh controllers.
public struct Runner: Sendable {
    public let configuration: RunConfiguration
    /// Called as each case finishes (the CLI prints its line here).
    public let onResult: @Sendable (CaseResult) -> Void

    public init(_ configuration: RunConfiguration, onResult: @escaping @Sendable (CaseResult) -> Void = { _ in }) {
        self.configuration = configuration
        self.onResult = onResult
    }

    /// Preflight, then every selected case `repeatCount` times; the work folder is removed at
    /// the end unless kept. Throws ``RunEnvironmentError`` when no controller starts (before
    /// any case ran).
    public func run() async throws -> RunReport {
        let config = configuration
        defer { if !config.keepWorkDirectory { try? FileManager.default.removeItem(atPath: config.workDirectory) } }
        let uncatalogued = config.registry.uncatalogued(in: config.catalogue)
        guard uncatalogued.isEmpty else {
            throw RunEnvironmentError(reason: "cases missing from the catalogue: \(uncatalogued.map(\.rawValue).joined(separator: ", "))")
        }
        let writer = try ReportWriter(folder: config.reportFolder)
        var report = RunReport(runID: config.runID, startedAt: Date(),
                               profile: .init(name: config.profile.name, path: config.profile.path),
                               controller: config.controller.description, dut: config.dut ?? config.dutExec?.description,
                               filter: config.filter.globs,
                               shard: config.shard?.description, repeatCount: config.repeatCount,
                               capturesRoot: config.captureFolder)
        let cases = config.selectedCases
        let needsController = cases.contains { $0.needs.controllers > 0 }
        let preflight = needsController
            ? try await Preflight.run(config.controller, workDirectory: "\(config.workDirectory)/preflight") : nil
        try writer.write(report)
        // Every case `repeatCount` times, as CaseSchedule starts them; results are
        // reported in this order whatever order they end in.
        let plan = (1...max(1, config.repeatCount)).flatMap { repetition in cases.map { (repetition, $0) } }
        var schedule = CaseSchedule(plan.map { CaseSchedule.kind(of: $0.1, in: config) }, jobs: config.jobs)
        var ended: [Int: (CaseResult, String?)] = [:]
        var reported = 0
        // report.html at most every 5 s; the others after every case, off this loop.
        let updates = ReportUpdates(writer: writer, htmlInterval: .seconds(5))
        await withTaskGroup(of: (Int, CaseResult, String?).self) { group in
            while true {
                for index in schedule.startable() {
                    let (repetition, item) = plan[index]
                    group.addTask {
                        let (result, implementation) = await runOne(item, repetition: repetition, preflight: preflight)
                        return (index, result, implementation)
                    }
                }
                guard let (index, result, implementation) = await group.next() else { break }
                schedule.finished(index)
                ended[index] = (result, implementation)
                while let (result, implementation) = ended.removeValue(forKey: reported) {
                    report.cases.append(result)
                    if report.implementation == nil { report.implementation = implementation }
                    updates.post(report)
                    onResult(result)
                    reported += 1
                }
            }
        }
        report.endedAt = RunReport.timestamp(Date())
        try await updates.finish(report)
        return report
    }

    /// One case on its own topology, with its timeout; never throws: every problem is a verdict.
    /// Also returns how the implementation under test named itself, when it ran in the case.
    func runOne(_ item: any ConformanceCase, repetition: Int, preflight: Preflight?) async -> (CaseResult, String?) {
        let config = configuration
        let entry = config.catalogue.entry(item.id)!
        let log = CaseLog()
        let start = ContinuousClock.now
        let folder = config.repeatCount > 1 ? "\(item.id.pathComponent)-\(repetition)" : item.id.pathComponent
        let captureFolder = "\(config.captureFolder)/\(folder)"
        var captures: [String] = []
        var implementation: String?
        func result(_ outcome: CaseOutcome) -> (CaseResult, String?) {
            (CaseResult(entry: entry, outcome: outcome, duration: ContinuousClock.now - start, repetition: repetition,
                        captures: captures, log: log.excerpt), implementation)
        }

        if config.dutExec == nil, config.transmitterProvider?.isDeviceUnderTest == true, item.needs.transmitters > 0, item.needs.radioScenario != nil {
            return result(.notApplicable("the case needs the radio proxy in front of every node, and the implementation's controller is not behind it"))
        }
        var device: Topology.DeviceSlot?
        var skipped: Int?
        var ours = item.needs
        if let air = config.airDevice {
            if let reason = Self.inapplicable(item.needs, to: air) { return result(.notApplicable(reason)) }
            // The device's node needs no controller of ours: one adapter can test a phone.
            skipped = air.node
            ours.controllers -= 1
        }
        if let preflight, let missing = preflight.missing(ours) { return result(.notApplicable(missing)) }
        if let exec = config.dutExec {
            guard let node = item.needs.deviceNode, node < item.needs.controllers else {
                return result(.notApplicable("the case has no part for an implementation under test (--dut-exec): it checks the harness or the reference alone"))
            }
            device = Topology.DeviceSlot(node: node, exec: exec, caseID: item.id, log: log)
        }

        let topology: Topology
        do {
            log.note("opening \(item.needs.controllers) controller(s) on \(config.controller)")
            topology = try await Topology.open(item.needs, spec: config.controller, captureFolder: captureFolder,
                                               workDirectory: "\(config.workDirectory)/\(folder)",
                                               device: device, skipping: skipped, clock: config.clock)
        } catch {
            log.note("topology failed: \(error)")
            return result(.error("could not set up the case's controllers: \(error)"))
        }
        captures = topology.captures.filter { FileManager.default.fileExists(atPath: $0) }
        let context = CaseContext(entry: entry, profile: config.profile, nodes: topology.hosts, dut: topology.dut, airDevice: config.airDevice,
                                  captures: topology.captures,
                                  radio: topology.radio, transmitterProvider: config.transmitterProvider,
                                  transferFaults: config.transferFaults, log: log, backendFacts: topology.backend?.facts ?? [],
                                  clock: config.clock, folder: folder)
        var outcome = await Self.guarded(item, context, backend: topology.backend,
                                         timeout: max(config.caseTimeout, item.needs.timeout ?? .zero), clock: config.clock)
        if let provider = config.transmitterProvider, item.needs.transmitters > 0 {
            if let failure = await provider.harnessFailure() { outcome = .error(failure) }
            implementation = await provider.implementationName()
            await provider.release(for: context)
        }
        await topology.close()
        if outcome.verdict == .pass || outcome.verdict == .inconclusive {
            outcome = Self.withCaptureChecks(outcome, captures: captures, log: log)
        }
        if let dut = topology.dut {
            implementation = dut.hello ?? implementation
            if let override = dut.verdictOverride(optional: context.optionalPreconditions) {
                log.note("the case concluded \(outcome.verdict.rawValue) (\(outcome.reason)); the implementation under test decides instead")
                outcome = override
            }
        }
        log.note("verdict \(outcome.verdict.rawValue): \(outcome.reason)")
        return result(outcome)
    }

    /// Why a case cannot judge a device on the air, or nil when it can.
    static func inapplicable(_ needs: CaseNeeds, to device: AirDevice) -> String? {
        guard let node = needs.dutNode else {
            return "a device on the air (--dut-address) has no part in this case: its transmitter cases need the control protocol (--dut)"
        }
        guard node == device.node else {
            return "the device on the air plays the \(device.role.rawValue); this case judges the \(node == 0 ? "peripheral" : "central")"
        }
        guard needs.judgesAirDevice else {
            return "the case needs the device's own capture, the radio proxy in front of it, or what it reports; none of them exists for a device on the air (use --dut-exec)"
        }
        return nil
    }

    /// The case, raced against its timeout and against its backend dying.
    static func guarded(_ item: any ConformanceCase, _ context: CaseContext, backend: (any ControllerBackend)?,
                        timeout: Duration, clock: any Clock<Duration>) async -> CaseOutcome {
        do {
            return try await withTimeout(timeout, clock: clock, what: "\(item.id) to finish") {
                try await withThrowingTaskGroup(of: CaseOutcome?.self) { group in
                    group.addTask { try await item.run(context) }
                    group.addTask {
                        guard let death = await backend?.waitForDeath() else { return nil }
                        return .error("the controller died mid-case: \(death)")
                    }
                    defer { group.cancelAll() }
                    while let next = try await group.next() {
                        if let next { return next }
                    }
                    throw CancellationError()
                }
            }
        } catch let error as TimeoutError {
            context.log.note("\(error)")
            return .error("timed out after \(timeout)")
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable(unavailable.reason)
        } catch {
            context.log.note("harness error: \(error)")
            // A case that failed because its controller died says so.
            if let backend,
               let death = try? await withTimeout(.seconds(1), clock: clock, what: "the backend's end", { await backend.waitForDeath() }) {
                return .error("the controller died mid-case: \(death)")
            }
            return .error("\(error)")
        }
    }

    /// A case that passed (or could not judge) is also held to the capture-level checks on its
    /// own captures: any check that fails there fails the case, naming capture and frames.
    static func withCaptureChecks(_ outcome: CaseOutcome, captures: [String], log: CaseLog) -> CaseOutcome {
        var failures: [Finding] = []
        for capture in captures {
            guard let file = try? CaptureReader.read(path: capture).records else { continue }
            for check in CaptureAnalyser.check(file) where check.verdict == .fail {
                failures.append(Finding(check, capture: capture))
            }
        }
        guard !failures.isEmpty else { return outcome }
        log.note("capture checks failed: \(failures.map(\.line).joined(separator: "; "))")
        return .fail("a capture-level check failed on the case's own captures", findings: failures + outcome.findings)
    }
}
