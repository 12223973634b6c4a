import ArgumentParser

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
        subcommands: [ProbeCommand.self, InspectCommand.self]
    )
}
