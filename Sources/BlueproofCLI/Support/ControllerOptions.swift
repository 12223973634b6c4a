import ArgumentParser
import BlueproofBackend
import Foundation

/// Options shared by every command that talks to controllers.
struct ControllerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Where the controllers come from.",
        discussion: """
        btvirt (default): BlueZ's emulator, started for this run (apt-get install bluez-test-tools).
        rootcanal: Android's virtual controller 1.10.0, started from the project's .venv.
        hciN or hci:N: a local adapter through the HCI user channel (needs root; the adapter goes down).
        unix:PATH: an H4 server socket, e.g. a btvirt you started yourself (unix:/tmp/bt-server-le).
        tcp:HOST:PORT: an H4 TCP server, e.g. a Rootcanal you started yourself (tcp:127.0.0.1:6402).
        serial:DEVICE[@BAUD][,noflow]: H4 over a UART, 115200 baud with RTS/CTS by default.
        """,
        valueName: "backend"))
    var controller: String = "btvirt"

    @Option(name: .long, help: ArgumentHelp(
        "Record every HCI packet to a pcap (link type 201, opens in Wireshark).",
        discussion: "With several controllers, each gets its own file: PATH with -nodeN before the extension.",
        valueName: "path"))
    var capture: String?

    @Option(name: .long, help: ArgumentHelp("Folder for controller logs and sockets (default: a new folder under /tmp).",
                                            valueName: "path"))
    var workDir: String?

    @Option(name: .long, help: "Log level on standard error: error, warning, info, debug, trace.")
    var logLevel: LogLevelOption = .warning

    /// Refuses a `--controller` value that names no backend (ArgumentParser runs this for
    /// every command that includes these options).
    func validate() throws { _ = try backendSpec() }

    /// The backend `--controller` names.
    func backendSpec() throws -> BackendSpec {
        do {
            return try BackendSpec(parsing: controller)
        } catch {
            throw ValidationError("--controller: \(error)")
        }
    }

    /// The capture file of controller `index` out of `count`.
    func capturePath(index: Int, count: Int) -> String? {
        guard let capture else { return nil }
        guard count > 1 else { return capture }
        let url = URL(fileURLWithPath: capture)
        let stem = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension.isEmpty ? "pcap" : url.pathExtension
        return url.deletingLastPathComponent().appendingPathComponent("\(stem)-node\(index).\(ext)").path
    }

    /// The work folder, created.
    func makeWorkDirectory() throws -> String {
        let path = workDir ?? "\(NSTemporaryDirectory())/blueproof-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
