import ArgumentParser
import BlueproofTransfer
import Foundation

/// What `transfer peripheral` and `transfer central` share: show the events, print the
/// summary, save what arrived.
enum TransferRoleRunner {
    /// Consumes `events`, prints the result; exit 1 when the transfer failed. A sender's
    /// failure also says how much of `sent` left and its SHA-256.
    static func finish(_ events: AsyncStream<TransferEvent>, label: String, sent: [UInt8]?, backend: String,
                       json: Bool, output: String?) async throws {
        let total = sent?.count
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
            if let sent, let report = TransferFailureReport(error, payload: sent, role: label, backend: backend) {
                if json { try Console.json(report) } else { Console.line(report.text) }
            }
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
        A chunk counts as sent once the controller has completed it (Number Of Completed \
        Packets): a central that leaves before the last one fails the transfer at once, with \
        the bytes that left and their SHA-256. Once everything is sent the peripheral stays \
        until the central turns notifications off and disconnects (as the sample's does), at \
        most 30 s. A write-back it must refuse (over 512 bytes) is said in the output. With \
        --reverse, receives the central's payload instead and notifies the reply.

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

    @Flag(name: .long, help: "Print the summary as JSON (the reply as hex; a failed sender: the bytes that left and their SHA-256).")
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
            try await TransferRoleRunner.finish(events, label: "peripheral", sent: reverse ? nil : bytes,
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
        Prints how another program (a second blueproof, a Bumble) can join the same backend. \
        Once "EOM" arrives it writes back (an empty payload gets an empty write-back, as the \
        sample writes back on "EOM"), turns notifications off and disconnects. With --reverse, \
        sends --text/--file/--size to the peripheral instead.

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

    @Flag(name: .long, help: "Print the summary as JSON (the reply as hex; a failed sender: the bytes that left and their SHA-256).")
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
            try await TransferRoleRunner.finish(events, label: "central", sent: reverse ? bytes : nil,
                                                backend: session.backend.name, json: json, output: output)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
    }
}
