import ArgumentParser
import BlueproofTransfer
import Foundation

/// What `transfer peripheral` and `transfer central` share: show the events, print the
/// summary, save what arrived.
enum TransferRoleRunner {
    /// Consumes `events`, prints the result; exit 1 when the transfer failed.
    static func finish(_ events: AsyncStream<TransferEvent>, label: String, total: Int?, backend: String,
                       json: Bool, output: String?) async throws {
        let console = TransferConsole(label: label, total: total, showProgress: true)
        let outcome = await events.outcome { console.show($0) }
        console.finish()
        switch outcome {
        case let .success(summary):
            if let output, let payload = summary.payload {
                guard FileManager.default.createFile(atPath: output, contents: Data(payload)) else {
                    Console.error("cannot write \(output)")
                    throw ExitCode(1)
                }
            }
            let report = TransferReport(summary, backend: backend, output: summary.payload == nil ? nil : output)
            if json { try Console.json(report) } else { Console.line(report.text) }
        case let .failure(error):
            Console.error("\(label): \(error)")
            throw ExitCode(1)
        }
    }
}

struct TransferPeripheralCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peripheral",
        abstract: "Advertise the transfer service and send a payload to the first central that subscribes.",
        discussion: """
        Prints how another program (a second blueproof, a Bumble) can join the same backend. \
        With --reverse, receives the central's payload instead and notifies the reply.

        Examples:
          blueproof transfer peripheral --text "Hello, central"
          blueproof transfer peripheral --file photo.jpg --controller rootcanal
          blueproof transfer peripheral --reverse --output received.bin
        """
    )

    @OptionGroup var options: ControllerOptions
    @OptionGroup var payload: TransferPayloadOptions
    @OptionGroup var profile: TransferProfileOptions

    @Flag(name: .long, help: "Receive from the central instead of sending to it.")
    var reverse = false

    @Option(name: .long, help: ArgumentHelp("With --reverse, save the received payload here.", valueName: "path"))
    var output: String?

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if reverse, payload.given { throw ValidationError("with --reverse the central sends; drop --text/--file/--size") }
        if !reverse, !payload.given { throw ValidationError("give the payload: --text, --file or --size") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let bytes = try payload.payload()
        let session = try await ControllerSession.open(options, count: 1)
        let hosts = try await session.startHosts()
        if let hint = session.joinHint { Console.progress(hint) }
        let peripheral = TransferPeripheral(host: hosts[0], profile: profile.profile())
        let events = peripheral.run(reverse ? .receive(reply: profile.transferReply) : .send(bytes))
        do {
            try await TransferRoleRunner.finish(events, label: "peripheral", total: reverse ? nil : bytes.count,
                                                backend: session.backend.name, json: json, output: output)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
    }
}

struct TransferCentralCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "central",
        abstract: "Find a transfer peripheral that passes the RSSI gate and receive its payload.",
        discussion: """
        With --reverse, sends --text/--file/--size to the peripheral instead.

        Examples:
          blueproof transfer central --controller unix:/tmp/blueproof-1234/btvirt/bt-server-le --allow-unavailable-rssi
          blueproof transfer central --min-rssi -70 --output received.bin
        """
    )

    @OptionGroup var options: ControllerOptions
    @OptionGroup var payload: TransferPayloadOptions
    @OptionGroup var profile: TransferProfileOptions

    @Flag(name: .long, help: "Send to the peripheral instead of receiving from it.")
    var reverse = false

    @Option(name: .long, help: ArgumentHelp("Save the received payload here.", valueName: "path"))
    var output: String?

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if !reverse, payload.given { throw ValidationError("the peripheral sends; --text/--file/--size need --reverse") }
        if reverse, !payload.given { throw ValidationError("give the payload: --text, --file or --size") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let bytes = try payload.payload()
        let session = try await ControllerSession.open(options, count: 1)
        let hosts = try await session.startHosts()
        if let hint = session.joinHint { Console.progress(hint) }
        let central = TransferCentral(host: hosts[0], profile: profile.profile())
        let events = central.run(reverse ? .send(bytes) : .receive(reply: profile.transferReply))
        do {
            try await TransferRoleRunner.finish(events, label: "central", total: reverse ? bytes.count : nil,
                                                backend: session.backend.name, json: json, output: output)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
    }
}
