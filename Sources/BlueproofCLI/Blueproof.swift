import ArgumentParser
import Foundation

@main
struct Blueproof: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blueproof",
        abstract: "Conformance harness for Bluetooth LE offline-messaging transmitters.",
        discussion: """
        blueproof speaks HCI to Bluetooth controllers and records every packet that crosses the \
        host/controller boundary. It starts virtual controllers itself (BlueZ btvirt, the default, \
        or Android Rootcanal) or uses the one you name.

        Start with `blueproof probe` to see what a controller can do, and read any capture with \
        `blueproof inspect FILE`.

        Exit codes: 0 success, 1 a check failed, 2 usage error, 3 environment (no controller could start).
        """,
        subcommands: [ProbeCommand.self, ScanCommand.self, AdvertiseCommand.self, GATTCommand.self,
                      TransferCommand.self, BenchCommand.self, InspectCommand.self, CheckCommand.self,
                      RunCommand.self, ReportCommand.self, DUTCommand.self, ChatCommand.self,
                      BluenetCommand.self, // issue 18: Bluenet
                      SparkCommand.self]
    )

    /// As ArgumentParser's, but a usage error exits with 2, the code blueproof documents
    /// (ArgumentParser's own is 64).
    static func main() async {
        if let message = CommandSuggestion.message(for: Array(CommandLine.arguments.dropFirst()), root: Self.self) {
            Console.diagnostic("Error: " + message + "\n")
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            // BLUEPROOF_PARSE_ONLY=1: parse and validate the command line, run nothing. The
            // test that runs every documented example uses it for examples that need a device,
            // a file or minutes (HelpExamplesTests).
            if ProcessInfo.processInfo.environment["BLUEPROOF_PARSE_ONLY"] == "1" {
                Console.line("parsed: \(type(of: command)._commandName)")
                return
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            Console.diagnostic(fullMessage(for: error) + "\n")
            Foundation.exit(2)
        }
    }
}
