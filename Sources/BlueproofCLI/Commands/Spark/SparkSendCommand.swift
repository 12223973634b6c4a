import ArgumentParser
import BlueproofAsync
import BlueproofHost
import BlueproofSpark
import Foundation

/// `blueproof spark send`: the sample app's sending side ("Starting A Data Connection", "Data
/// and Files", "Streams").
struct SparkSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Find a Spark listener by its registration id, offer a connection and send a file, a text or standard input.",
        discussion: """
        Scans for the listener's advertisement, connects, opens the Spark channel and offers a \
        data connection with the metadata (at most 4096 bytes of UTF-8). The listener's key \
        must be in the key directory first, as the sample requires keys synchronized before an \
        offer; an offer unanswered for 30 s ends with timeout. Once accepted it sends a file \
        (named by the last component of its path), a text as an in-memory data block, or \
        standard input on a data channel, shows progress on standard error, and once all of \
        it has left this host (nothing in the format acknowledges data) prints its size, time, \
        throughput and SHA-256, ends the connection and disconnects. The listener prints the \
        same for what arrived.

        Examples:
          blueproof spark send --to 7 --file photo.jpg
          blueproof spark send --to 7 --text "hello" --metadata "a greeting"
          blueproof spark send --to 7 --stream --description logs   (sends what is piped in)

        Exit status: 0 sent, 1 not sent (no listener heard, key error, declined, failed), 2 usage, \
        3 no controller or key directory.
        """
    )

    @OptionGroup var options: ControllerOptions
    @OptionGroup var node: SparkNodeOptions

    @Option(name: .long, help: ArgumentHelp("The listener's registration id.", valueName: "id"))
    var to: UInt64

    @Option(name: .long, help: ArgumentHelp("A file to send.", valueName: "path"))
    var file: String?

    @Option(name: .long, help: "A text to send as an in-memory data block.")
    var text: String?

    @Flag(name: .long, help: "Send standard input as a stream, on a data channel.")
    var stream = false

    @Option(name: .customLong("description"), help: "The data block's or channel's description (default: text, stdin).")
    var label: String?

    @Option(name: .long, help: "Metadata sent with the offer, at most 4096 bytes of UTF-8.")
    var metadata = ""

    @Option(name: .long, help: "Seconds to look for the listener's advertisement.")
    var scanTimeout: Double = 10

    func validate() throws {
        guard [file != nil, text != nil, stream].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --file, --text and --stream")
        }
        guard to != 0 else { throw ValidationError("--to must be 1 or more: 0 names no node on the wire") }
        let bytes = metadata.utf8.count
        guard bytes <= SparkLimits.maxMetadataBytes else {
            throw ValidationError("--metadata is \(bytes) bytes of UTF-8; an offer carries at most \(SparkLimits.maxMetadataBytes) (\"up to 4Kb\")")
        }
        if let label, label.utf8.count > SparkLimits.maxNameBytes {
            throw ValidationError("--description is \(label.utf8.count) bytes; at most \(SparkLimits.maxNameBytes)")
        }
        guard scanTimeout > 0, scanTimeout <= 3600 else { throw ValidationError("--scan-timeout must be more than 0 and at most 3600 seconds") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        if let file {
            // Checked here, not in validate(): the help's examples name files that need not exist.
            var directory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &directory), !directory.boolValue else {
                Console.error("--file \(file): no such file")
                throw ExitCode(2)
            }
        }
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        // A sender sets no receive callbacks, so nothing is ever written to its cache folder.
        let terminal = try await SparkTerminal.start(options, registrationID: node.resolveRegistrationID(), directory: node.directory,
                                                     cacheFolder: NSTemporaryDirectory(), concurrency: .single, acceptance: .application,
                                                     teardown: teardown)
        Console.progress("sending as registration id \(terminal.registrationID)")
        let sender = SparkSender(terminal: terminal)
        let node = terminal.node
        teardown.beforeExit { await node.perform { core in for id in core.liveConnections { try? core.end(id) } } }
        let status: Int32
        do {
            let what: SparkSender.What = if let file { .file(file) } else if let text { .text(text, description: label ?? "text") }
                                         else { .stream(description: label ?? "stdin") }
            let summary = try await sender.send(what, to: to, metadata: metadata, scanTimeout: scanTimeout)
            Console.line(summary)
            status = 0
        } catch {
            Console.error(error.message)
            status = 1
        }
        await sender.hangUp()
        await terminal.close()
        if status != 0 { throw ExitCode(status) }
    }
}

/// Why `spark send` sent nothing, or not all.
struct SparkSendFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
