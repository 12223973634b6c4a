import ArgumentParser
import BlueproofAsync
import BlueproofHost
import BlueproofRadio
import BlueproofTransfer
import BlueproofWire
import Foundation

struct TransferDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Both transfer roles on two controllers of one backend: peripheral on node 0, central on node 1.",
        discussion: """
        Shows the receiver's progress (bytes and rate) on standard error, then a summary with the \
        throughput and the SHA-256 of what arrived. Exits 1 when the transfer fails or what \
        arrived differs from what was sent.

        Virtual controllers report no RSSI (btvirt) or a synthetic one, so the demo lets \
        "not available" through the gate unless --require-rssi is given.

        Examples:
          blueproof transfer demo --file photo.jpg
          blueproof transfer demo --size 1000000 --controller rootcanal --capture demo.pcap
          blueproof transfer demo --text "EOM inside EOM" --reverse --mtu 23
          blueproof transfer demo --size 300000 --scenario Conformance/scenarios/withheld-credits.yaml

        With --scenario, both nodes run behind the radio proxy (docs/radio-proxy.md): RSSI, range \
        and faults come from the scenario, and every injected fault is listed, with its time, in \
        the summary.
        """
    )

    @OptionGroup var options: ControllerOptions
    @OptionGroup var payload: TransferPayloadOptions
    @OptionGroup var profile: TransferProfileOptions

    @Flag(name: .long, help: "The central sends and the peripheral receives.")
    var reverse = false

    @Flag(name: .long, help: "Refuse an RSSI of \"not available\" (btvirt then never passes the gate).")
    var requireRSSI = false

    @Option(name: .long, help: ArgumentHelp("Save the received payload here.", valueName: "path"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "Run both nodes behind the radio proxy with this scenario (node 0 peripheral, node 1 central).",
        valueName: "yaml"))
    var scenario: String?

    @Flag(name: .long, help: "Print the summary as JSON (the reply as hex).")
    var json = false

    func validate() throws {
        guard payload.given else { throw ValidationError("give the payload: --text, --file or --size") }
        _ = try radioScenario()
    }

    /// The scenario named by `--scenario`, which must name at least the two nodes.
    private func radioScenario() throws -> RadioScenario? {
        guard let scenario else { return nil }
        let loaded: RadioScenario
        do {
            loaded = try RadioScenario.load(path: scenario)
        } catch {
            throw ValidationError("--scenario: \(error)")
        }
        guard loaded.nodeNames.count >= 2 else {
            throw ValidationError("--scenario: \(scenario) names \(loaded.nodeNames.count) node(s); the demo needs 2")
        }
        return loaded
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let bytes = try payload.payload()
        let radio = try radioScenario().map { RadioWorld(scenario: $0) }
        let session = try await ControllerSession.open(options, count: 2, radio: radio)
        let hosts = try await session.startHosts()
        let transferProfile = profile.profile(allowUnavailable: profile.allowUnavailableRSSI || !requireRSSI)
        let peripheral = TransferPeripheral(host: hosts[0], profile: transferProfile)
        let central = TransferCentral(host: hosts[1], profile: transferProfile)
        let reply = profile.transferReply
        let reverse = self.reverse
        let advertising = OneShot<Void>()
        async let peripheralSide = Self.consume(
            peripheral.run(reverse ? .receive(reply: reply) : .send(bytes)), label: "peripheral",
            total: bytes.count, progress: reverse, advertising: advertising)
        // btvirt reports an advertiser only when scanning or advertising is enabled: the
        // central starts once the peripheral advertises (or has failed).
        await advertising.wait()
        async let centralSide = Self.consume(
            central.run(reverse ? .send(bytes) : .receive(reply: reply)), label: "central",
            total: bytes.count, progress: !reverse)
        let (sender, receiver) = reverse ? (await centralSide, await peripheralSide) : (await peripheralSide, await centralSide)
        await session.close()
        radio?.shutdown()
        let faults = radio?.faultLog
        if let faults, !json {
            Console.progress("radio proxy: \(faults.count) injected fault(s)")
            for fault in faults { Console.progress("  \(fault)") }
        }

        switch (sender, receiver) {
        case let (.success(sent), .success(received)):
            let report = TransferDemoReport(backend: session.backend.name, sent: sent, received: received,
                                            expected: SHA256.hex(bytes), radioFaults: faults)
            if let output, let payload = received.payload {
                _ = FileManager.default.createFile(atPath: output, contents: Data(payload))
            }
            if json { try Console.json(report) } else { Console.line(report.text) }
            if !report.intact {
                Console.error("the received payload differs from the one sent")
                throw ExitCode(1)
            }
        default:
            for case let .failure(error) in [sender, receiver] { Console.error("\(error)") }
            throw ExitCode(1)
        }
    }

    /// One role's events shown under `label`; only the receiver draws the progress bar.
    private static func consume(_ events: AsyncStream<TransferEvent>, label: String, total: Int,
                                progress: Bool, advertising: OneShot<Void>? = nil) async -> Result<TransferSummary, TransferError> {
        let console = TransferConsole(label: label, total: total, showProgress: progress)
        let outcome = await events.outcome { event in
            if case .advertising = event { advertising?.resolve(()) }
            console.show(event)
        }
        advertising?.resolve(())
        console.finish()
        return outcome
    }
}

/// What `transfer demo` prints.
struct TransferDemoReport: Encodable {
    var backend: String
    var direction: String
    var bytes: Int
    var receivedBytes: Int
    var mtu: Int
    var chunkSize: Int
    var chunks: Int
    var seconds: Double
    var bytesPerSecond: Double
    var sentSHA256: String
    var receivedSHA256: String
    var intact: Bool
    /// The receiver's answer, as hex (bytes, not text).
    var reply: String?
    /// What the radio proxy injected, with times; nil without `--scenario`.
    var radioFaults: [RadioFaultLogEntry]?

    init(backend: String, sent: TransferSummary, received: TransferSummary, expected: String,
         radioFaults: [RadioFaultLogEntry]? = nil) {
        self.radioFaults = radioFaults
        self.backend = backend
        direction = sent.direction.rawValue
        bytes = sent.bytes
        receivedBytes = received.bytes
        mtu = received.mtu
        chunkSize = received.chunkSize
        chunks = received.chunks
        seconds = received.seconds
        bytesPerSecond = received.bytesPerSecond
        sentSHA256 = expected
        receivedSHA256 = received.sha256
        intact = received.sha256 == expected && received.bytes == sent.bytes
        reply = sent.reply.map { hex($0) }
    }

    var text: String {
        """
        \(backend), \(direction): \(receivedBytes) of \(bytes) bytes arrived \(intact ? "intact" : "DIFFERENT")
          ATT_MTU \(mtu), \(chunks) chunks of up to \(chunkSize) bytes, \(String(format: "%.2f s, %.1f kB/s", seconds, bytesPerSecond / 1000))
          SHA-256 sent     \(sentSHA256)
          SHA-256 received \(receivedSHA256)\(reply.map { "\n  reply (hex) \($0.count > 64 ? String($0.prefix(64)) + "…" : $0)" } ?? "")
        """
    }
}
