import ArgumentParser
import BlueproofHost
import BlueproofSpark
import Foundation

/// `blueproof spark listen`: the sample app's listening side ("Listening For Data Connections").
struct SparkListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Advertise a registration id and take Spark data connections: files, texts and streams.",
        discussion: """
        Advertises connectable with the registration id (docs/spark-wire.md, "Finding a \
        listener") and accepts every connection whose key checks out, setting its receive \
        callbacks first. Received files go to the folder (written to a temporary file and \
        renamed once their SHA-256 matched); a data block that is text is printed, others are \
        saved; a stream is saved as stream-PEER-CONNECTION-CHANNEL once its channel closes. \
        Each is reported on standard output with its size, time and SHA-256; progress goes to \
        standard error.

        Examples:
          blueproof spark listen --id 7
          blueproof spark listen --id 7 --single --count 1 --folder received

        Exit status: 0 done (--count reached, or interrupted), 2 usage, 3 no controller or key directory.
        """
    )

    @OptionGroup var options: ControllerOptions
    @OptionGroup var node: SparkNodeOptions

    @Option(name: .long, help: ArgumentHelp("Where received files and streams go (default: $XDG_CACHE_HOME/blueproof/spark-ID).", valueName: "path"))
    var folder: String?

    @Flag(name: .long, help: "Be the sample app: one connection at a time, a second offer is ended busy.")
    var single = false

    @Option(name: .long, help: "Exit once this many files, data blocks and streams have arrived (failed ones count too).")
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let registrationID = node.resolveRegistrationID()
        let folder = self.folder ?? Self.defaultFolder(registrationID)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            Console.error("cannot make the folder \(folder): \(error.localizedDescription)")
            throw ExitCode(3)
        }
        let terminal = try await SparkTerminal.start(options, registrationID: registrationID, directory: node.directory, cacheFolder: folder,
                                                     concurrency: single ? .single : .several(limit: SparkLimits.maxConnections),
                                                     acceptance: .application, teardown: teardown)
        let receiver = SparkReceiver(node: terminal.node, folder: folder, limit: count)
        await terminal.node.listen()
        // Advertising stops when a central connects (Core Vol 6, Part B §4.4.2.1): it starts
        // again at once, so the next sender finds this listener too.
        let advertising = LEAdvertisingParameters(data: try SparkAdvertisement.data(registrationID: registrationID))
        let host = terminal.host
        let readvertise = Task {
            for await _ in await host.incomingConnections() {
                do { try await host.startAdvertising(advertising) } catch { Console.error("could not advertise again after a connection: \(error)") }
            }
        }
        do {
            try await host.startAdvertising(advertising)
        } catch {
            Console.error("could not advertise: \(error)")
            await terminal.close()
            throw ExitCode(3)
        }
        Console.line("listening as registration id \(registrationID); received files go to \(folder)")
        await receiver.run(terminal.node.events)
        readvertise.cancel()
        await terminal.close()
    }

    static func defaultFolder(_ registrationID: UInt64, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/blueproof/spark-\(registrationID)"
    }
}
