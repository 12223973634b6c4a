import ArgumentParser
import BlueproofTransport
import BlueproofBackend
import BlueproofConformance
import BlueproofTransmitter
import BlueproofWire
import Foundation

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the conformance cases and write their reports and captures.",
        discussion: """
        Each selected case runs on fresh controllers, up to --jobs at once (node N records to \
        Captures/<run-id>/<case-id, / as _>/nodeN.pcap, flushed per packet), behind the radio \
        proxy when the case needs one, with a timeout. The run goes on after a failure, a \
        timeout or a controller that dies (that case is an error; the next gets fresh \
        controllers). One line per case as it finishes, then a summary; the reports \
        (report.json, junit.xml, report.html, summary.md) are in --output/<run-id>/, rewritten \
        after every case. See docs/runner.md.

        Verdicts: pass, fail, inconclusive, not-applicable (the controller lacks what the case \
        needs, or the case does not apply to the profile), error (the harness could not run it).

        A case that could not set up what it needs (a connection, a secure connection, a \
        tester's part) is an error, unless that precondition is declared optional \
        (--optional-precondition, or runner.optional_preconditions in the profile): then it \
        is not-applicable and says so. A refusal counts only for the documented reason \
        (bridgefy.refusals.* in the profile lists the errors for each rule).

        Exit status: 0 passed (every case passed or did not apply, and at least one passed), \
        1 a case failed or erred, 2 usage error or a bad profile (file:line: reason), 3 \
        environment (no controller could start), 4 not passed: nothing failed, but a case was \
        inconclusive or no case was judged. The summary line ends PASSED, FAILED or NOT PASSED.

        Examples:
          blueproof run
          blueproof run --filter 'CBT/GATE/*' --repeat 3
          blueproof run --jobs 1
          blueproof run --shard 2/4 --output Reports/ci
          blueproof run --list
          blueproof run --filter 'CBT/*' --dut-exec 'python3 examples/duts/transfer_peripheral.py'
        """
    )

    @Option(name: .long, help: ArgumentHelp("The profile (default: Conformance/profiles/bridgefy-ios.yaml).", valueName: "yaml"))
    var profile: String?

    @Option(name: .long, help: ArgumentHelp(
        "The controllers: btvirt (default), rootcanal, hciN, unix:PATH, tcp:HOST:PORT (as for every command).",
        valueName: "backend"))
    var controller: String = "btvirt"

    @Option(name: .long, help: ArgumentHelp("Run only cases whose id matches (repeatable; * matches across /).", valueName: "glob"))
    var filter: [String] = []

    @Flag(name: .long, help: "List the cases (id, kind, status, title) and exit; starts no controller.")
    var list = false

    @Option(name: .long, help: ArgumentHelp("Run every selected case N times.", valueName: "N"))
    var `repeat`: Int = 1

    @Option(name: .long, help: ArgumentHelp(
        "Run up to N cases at once, each on its own controllers (default: the number of cores); up to N more whose time is mostly a quiet window (nothing must happen for some seconds) wait beside them. Reports keep the catalogue's order. A case that sets process-wide state (the BFT/LOG cases: the log level, the console), a run with an implementation under test, and a --controller the runner does not start per case run one case at a time.",
        valueName: "N"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Run the K-th of N stable shards (by a hash of the case id).", valueName: "K/N"))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp("Folder for the reports (one subfolder per run).", valueName: "dir"))
    var output: String = "Reports"

    @Option(name: .long, help: ArgumentHelp("Folder for the captures (one subfolder per run).", valueName: "dir"))
    var captures: String = "Captures"

    @Option(name: .long, help: ArgumentHelp("Seconds a case may take before it is an error.", valueName: "seconds"))
    var caseTimeout: Double = 60

    @Option(name: .long, help: ArgumentHelp(
        "An implementation under test behind the control protocol (docs/control-protocol.md): tcp:HOST:PORT or unix:PATH. It is node 0 of every transmitter case; its controller must share the air with --controller (e.g. both on one btvirt), which is checked before the first case (exit 3 if not). Without it the reference transmitter is checked.",
        valueName: "address"))
    var dut: String?

    @Option(name: .long, help: ArgumentHelp(
        "An implementation under test the runner starts itself, per case (/bin/sh -c COMMAND): it gets the node of the role the case judges (a transfer case's peripheral or central, a transmitter or Spark case's node 0) as an H4 server behind the radio proxy and that node's capture, and the case in its environment (BLUEPROOF_HCI, BLUEPROOF_ROLE, BLUEPROOF_CASE, BLUEPROOF_PAYLOAD, BLUEPROOF_OUTPUT, BLUEPROOF_CONTROL). Exit status 77 means it does not play the role asked (the case does not apply); any other exit mid-case makes the case an error. See docs/dut.md.",
        valueName: "command"))
    var dutExec: String?

    @Option(name: .long, help: ArgumentHelp(
        "A device under test on the air (a phone, a board) sharing --controller's air but not behind it: its address (AA:BB:CC:DD:EE:FF), or any for the first advertiser of the transfer service. With --dut-role; only the transfer cases whose rule shows on the reference's side apply (docs/dut.md, \"A device on the air\").",
        valueName: "address"))
    var dutAddress: String?

    @Option(name: .long, help: ArgumentHelp("The role the --dut-address device plays: peripheral or central.", valueName: "role"))
    var dutRole: String?

    @Option(name: .long, help: ArgumentHelp(
        "The bytes a --dut-address peripheral sends (the text or file it was given), compared byte for byte with what arrives.",
        valueName: "file"))
    var dutPayload: String?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds --dut-exec's program may take to come up (advertise, or serve the control protocol).", valueName: "seconds"))
    var dutStartTimeout: Double = 20

    @Option(name: .long, help: ArgumentHelp(
        "A precondition a case may fail to reach without failing the run (repeatable): \(Precondition.allCases.map(\.rawValue).joined(separator: ", ")). Such a case is not-applicable, and says why; any other set-up failure is an error.",
        valueName: "name"))
    var optionalPrecondition: [String] = []

    @Option(name: .long, help: "Log level on standard error: error, warning, info, debug, trace.")
    var logLevel: LogLevelOption = .warning

    @Flag(name: .long, help: ArgumentHelp(
        "Keep the run's work folder (controller logs, btvirt sockets, transmitter sessions) for debugging; by default it is removed when the run ends."))
    var keepWork = false

    /// `--optional-precondition`, each checked against the known names.
    func optionalPreconditions() throws -> [Precondition] {
        try optionalPrecondition.map { name in
            guard let precondition = Precondition(rawValue: name) else {
                throw ValidationError("--optional-precondition \(name): not one of \(Precondition.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return precondition
        }
    }

    /// The longest case timeout taken: a day.
    static let caseTimeoutLimit: Double = 86_400

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be 1 or more") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
        _ = try optionalPreconditions()
        guard caseTimeout > 0, caseTimeout <= Self.caseTimeoutLimit else {
            throw ValidationError("--case-timeout must be more than 0 and at most \(Int(Self.caseTimeoutLimit)) seconds (a day)")
        }
        if let shard { _ = try Self.parseShard(shard) }
        do { _ = try BackendSpec(parsing: controller) } catch { throw ValidationError("--controller: \(error)") }
        if [dut != nil, dutExec != nil, dutAddress != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--dut, --dut-exec and --dut-address each name an implementation under test; give one")
        }
        _ = try airDevice()
        if let dutExec, dutExec.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--dut-exec: the command is empty") }
        guard dutStartTimeout > 0, dutStartTimeout <= 600 else { throw ValidationError("--dut-start-timeout must be more than 0 and at most 600 seconds") }
        if let dut, !(dut.hasPrefix("tcp:") || dut.hasPrefix("unix:")) || dut.split(separator: ":").count < 2 {
            throw ValidationError("--dut: expected tcp:HOST:PORT or unix:PATH, got \(dut)")
        }
    }

    /// `--dut-address`, `--dut-role` and `--dut-payload`, checked together.
    func airDevice() throws -> AirDevice? {
        guard let dutAddress else {
            if dutRole != nil || dutPayload != nil { throw ValidationError("--dut-role and --dut-payload go with --dut-address") }
            return nil
        }
        var address: BDAddress?
        if dutAddress != "any" {
            guard let parsed = BDAddress(dutAddress) else {
                throw ValidationError("--dut-address: expected AA:BB:CC:DD:EE:FF or any, got \(dutAddress)")
            }
            address = parsed
        }
        guard let dutRole, let role = DUTRole(rawValue: dutRole), role == .peripheral || role == .central else {
            throw ValidationError("--dut-address needs --dut-role peripheral or --dut-role central")
        }
        var payload: [UInt8]?
        if let dutPayload {
            guard let data = FileManager.default.contents(atPath: dutPayload) else {
                throw ValidationError("--dut-payload: cannot read \(dutPayload)")
            }
            payload = [UInt8](data)
        } else if role == .peripheral {
            throw ValidationError("--dut-role peripheral needs --dut-payload: the bytes the device sends, to compare with what arrives")
        }
        return AirDevice(address: address, role: role, payload: payload)
    }

    static func parseShard(_ text: String) throws -> Shard {
        do { return try Shard(parsing: text) } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        logLevel.bootstrap()
        // The reference transmitters' own lines are what the BFT/LOG cases judge (their `log`
        // events, and what they print), at levels the cases set: they are not the run's
        // diagnostics, so they are kept for the cases rather than written out.
        let console = TransmitterConsole()
        TransmitterLog.use { _ in console.handler() }
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let (profileAsLoaded, catalogue) = try ConformanceInputs.load(profile: profile)
        let loadedProfile = profileAsLoaded.declaringOptional(try optionalPreconditions())
        let registry = CaseRegistry.standard(profile: loadedProfile)
        if list {
            Self.printList(catalogue: catalogue, registry: registry, filter: CaseFilter(filter),
                           shard: try shard.map(Self.parseShard))
            return
        }
        var configuration = RunConfiguration(
            profile: loadedProfile, catalogue: catalogue, registry: registry, controller: try BackendSpec(parsing: controller),
            filter: CaseFilter(filter), shard: try shard.map(Self.parseShard), repeatCount: `repeat`,
            reportsRoot: output, capturesRoot: captures,
            caseTimeout: .milliseconds(Int64(caseTimeout * 1000)), dut: dut)
        let sessions = URL(fileURLWithPath: configuration.workDirectory).appendingPathComponent("sessions")
        if let air = try airDevice() {
            configuration.airDevice = air
            configuration.dut = air.description
        }
        if let dutExec {
            let exec = DUTExec(command: dutExec, startTimeout: .milliseconds(Int64(dutStartTimeout * 1000)))
            configuration.dutExec = exec
            configuration.transmitterProvider = DUTTransmitterProvider(.exec(exec), sessionRoot: sessions)
        } else if let dut {
            configuration.transmitterProvider = DUTTransmitterProvider(address: try TransportSpec(parsing: dut), sessionRoot: sessions)
        } else {
            configuration.transmitterProvider = ReferenceTransmitterProvider(
                link: .ble, sessionRoot: sessions, executable: Bundle.main.executableURL, console: console)
        }
        configuration.keepWorkDirectory = keepWork
        configuration.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let workDirectory = configuration.workDirectory
        defer { if keepWork { Console.progress("work folder kept: \(workDirectory)/") } }
        // Stopped by a signal, the run still leaves no work folder behind.
        if !keepWork { teardown.removeOnSignal(workDirectory) }
        // A reader that leaves (`run | head`) ends the output, never the run: reports still come.
        Console.whenOutputCloses = .keepRunning
        let selected = configuration.selectedCases
        let planned = Self.plan(catalogue: catalogue, registry: registry, filter: configuration.filter,
                                shard: configuration.shard).planned
        if !planned.isEmpty { Console.progress(Self.notRun(planned)) }
        if selected.isEmpty { Console.progress("no implemented case matches the filter and shard") }
        Console.progress("run \(configuration.runID): \(selected.count) case(s) x \(`repeat`), profile \(loadedProfile.name), controller \(controller), \(configuration.jobs) at once"
                         + (configuration.jobs > 1 ? " (and up to \(configuration.jobs) more in quiet windows)" : ""))
        let style = VerdictStyle.forStandardOutput()
        let report: RunReport
        do {
            // An implementation that the cases' tester cannot hear would cost every case its timeout.
            if let dut, dutExec == nil, selected.contains(where: { $0.needs.transmitters > 0 }) {
                Console.progress("checking that --dut \(dut) shares the air with --controller \(controller)")
                try await Preflight.checkSharedAir(dut: try TransportSpec(parsing: dut), controller: configuration.controller,
                                                   workDirectory: "\(workDirectory)/dut-preflight")
            }
            report = try await Runner(configuration) { Console.line(style.line(for: $0)) }.run()
        } catch let error as RunEnvironmentError {
            Console.error("\(error)")
            if !keepWork { try? FileManager.default.removeItem(atPath: workDirectory) }
            throw ExitCode(3)
        }
        if let implementation = report.implementation { Console.progress("implementation under test: \(implementation)") }
        Console.line(report.summaryLine)
        Console.progress("reports in \(configuration.reportFolder)/, captures in \(configuration.captureFolder)/")
        if report.result != .passed { throw ExitCode(report.result.exitStatus) }
    }

    static func printList(catalogue: Catalogue, registry: CaseRegistry, filter: CaseFilter, shard: Shard?) {
        let implemented = Set(registry.ids)
        for entry in catalogue.entries where filter.matches(entry.id) && (shard?.contains(entry.id) ?? true) {
            let runner = implemented.contains(entry.id) ? "runner" : "-"
            Console.line("\(entry.id.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \(entry.kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(entry.status.padding(toLength: 12, withPad: " ", startingAt: 0)) \(runner.padding(toLength: 7, withPad: " ", startingAt: 0)) \(entry.title)")
        }
        let (runs, planned) = plan(catalogue: catalogue, registry: registry, filter: filter, shard: shard)
        Console.line("\(runs) case(s) to run" + (planned.isEmpty ? "" : "; \(notRun(planned))"))
    }

    /// How many selected cases a run runs, and the selected catalogue entries it cannot run
    /// (planned, no runner yet): `--list` shows both, the run names the second.
    static func plan(catalogue: Catalogue, registry: CaseRegistry, filter: CaseFilter, shard: Shard?)
        -> (runs: Int, planned: [CaseID]) {
        let implemented = Set(registry.ids)
        let selected = catalogue.entries.map(\.id).filter { filter.matches($0) && (shard?.contains($0) ?? true) }
        return (selected.filter(implemented.contains).count, selected.filter { !implemented.contains($0) })
    }

    /// `2 listed but not run (no runner yet): A, B`.
    static func notRun(_ planned: [CaseID]) -> String {
        "\(planned.count) listed but not run (no runner yet): \(planned.map(\.rawValue).joined(separator: ", "))"
    }
}
