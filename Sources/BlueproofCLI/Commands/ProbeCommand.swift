import ArgumentParser
import BlueproofBackend
import BlueproofCapture
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
        _ = try parseBackend()
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let spec = try parseBackend()
        let workDirectory = try options.makeWorkDirectory()

        Console.progress("starting \(spec) (logs in \(workDirectory))")
        let backend: any ControllerBackend
        do {
            backend = try await startBackend(spec, workDirectory: workDirectory)
        } catch {
            Console.error("\(error)")
            throw ExitCode(3)
        }
        if let limit = backend.controllerLimit, count > limit {
            await backend.shutdown()
            Console.error("\(BackendError.controllerLimit(backend: backend.name, limit: limit, requested: count))")
            throw ExitCode(2)
        }

        var controllers: [HCIController] = []
        var writers: [PcapWriter] = []
        let report: ProbeReport
        do {
            for index in 0..<count {
                let writer = try options.capturePath(index: index, count: count).map { try PcapWriter(path: $0) }
                if let writer { writers.append(writer) }
                let transport = try await backend.openController(capture: writer)
                let controller = HCIController(transport: transport)
                await controller.start()
                controllers.append(controller)
            }
            Console.progress("probing \(count) controller(s) on \(backend.name)")
            report = await ControllerProbe().run(controllers)
        } catch {
            await shutDown(controllers, writers, backend)
            Console.error("\(error)")
            throw ExitCode(3)
        }
        await shutDown(controllers, writers, backend)

        if json {
            try Console.json(ProbeOutput(backend: backend.name, facts: backend.facts,
                                         captures: writers.map(\.path), probe: report, passed: report.passed))
        } else {
            print(ProbeTable(backend: backend, report: report, captures: writers.map(\.path)).text)
        }
        if !report.passed { throw ExitCode(1) }
    }

    private func parseBackend() throws -> BackendSpec {
        do {
            return try BackendSpec(parsing: options.controller)
        } catch {
            throw ValidationError("--controller: \(error)")
        }
    }

    private func shutDown(_ controllers: [HCIController], _ writers: [PcapWriter], _ backend: any ControllerBackend) async {
        for controller in controllers { await controller.close() }
        for writer in writers { writer.close() }
        await backend.shutdown()
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
