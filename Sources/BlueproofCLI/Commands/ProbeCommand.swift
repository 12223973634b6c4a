import ArgumentParser
import BlueproofBackend
import BlueproofHost
import Foundation

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check what controllers can do before a run.",
        discussion: """
        Opens COUNT controllers, resets each and reads its version, address, features, supported \
        commands and ACL buffer sizes; checks that every command the host needs works (and whether \
        the supported-commands mask admits it); times the HCI command round trip; then proves that \
        consecutive controllers see each other: one advertises, the next scans until it gets the \
        report, connects, reads RSSI and disconnects.

        Examples:
          blueproof probe                                  two btvirt controllers
          blueproof probe --controller rootcanal --json    as JSON
          blueproof probe --capture /tmp/probe.pcap        one capture per controller

        Exit status: 0 all checks passed, 1 a check failed, 2 usage, 3 no controller could start.
        """
    )

    @OptionGroup var options: ControllerOptions

    @Option(name: .long, help: "How many controllers to open (2 or more to check that they see each other).")
    var count: Int = 2

    @Flag(name: .long, help: "Print the profile as JSON instead of a table.")
    var json = false

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let session = try await ControllerSession.open(options, count: count)
        for controller in session.controllers { await controller.start() }
        Console.progress("probing \(count) controller(s) on \(session.backend.name)")
        let report = await ControllerProbe().run(session.controllers)
        await session.close()

        let captures = session.writers.map(\.path)
        if json {
            try Console.json(ProbeOutput(backend: session.backend.name, facts: session.backend.facts,
                                         captures: captures, probe: report, passed: report.passed))
        } else {
            Console.line(ProbeTable(backend: session.backend, report: report, captures: captures).text)
        }
        if !report.passed { throw ExitCode(1) }
    }
}

/// `blueproof probe --json`.
struct ProbeOutput: Encodable {
    var backend: String
    var facts: [BackendFact]
    var captures: [String]
    var probe: ProbeReport
    var passed: Bool
}
