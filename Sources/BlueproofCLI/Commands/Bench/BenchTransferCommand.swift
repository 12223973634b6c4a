import ArgumentParser
import BlueproofAsync
import BlueproofBackend
import BlueproofHost
import BlueproofTransfer
import Foundation

struct BenchTransferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "The transfer's throughput against Bumble's own benchmark, with capture off and on.",
        discussion: """
        In one run on one backend kind, each round measures: (1) our transfer of SIZE bytes \
        (peripheral notifies, central receives; ATT_MTU 247, 244-byte chunks) with no capture, \
        (2) the same with a pcap per node, (3) Bumble's bench (bumble-bench, GATT notifications, \
        244-byte packets, ATT_MTU 247) between two Bumble nodes on the same backend kind. Every \
        measurement gets a fresh backend. With --repeat N the table shows each figure's median.

        On Rootcanal the capture also gives the controller's credit ceiling: how many ACL \
        packets its buffers let through per second, from the cadence of Number Of Completed \
        Packets events.

        Targets are shown as met or not met; they never change the exit status. Exit 1 when a \
        run failed or our payload arrived different, 3 when a component is missing.

        Examples:
          blueproof bench transfer
          blueproof bench transfer --controller rootcanal --size 300000 --repeat 3 --json
        """
    )

    @Option(name: .long, help: "Bytes per transfer.")
    var size: Int = 1_000_000

    @OptionGroup var bench: BumbleComparisonOptions

    func validate() throws {
        guard size > 0 else { throw ValidationError("--size must be at least 1 byte") }
    }

    func run() async throws {
        bench.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let spec = bench.spec
        let bumble = try bench.bumble()
        let root = try bench.makeWorkDirectory()
        let limit = bench.limit(size: size)
        let payload = (0..<size).map { UInt8($0 % 251) }
        let expected = SHA256.hex(payload)

        var rounds: [TransferBenchRound] = []
        do {
            for round in 1...bench.`repeat` {
                let tag = bench.`repeat` > 1 ? " (round \(round) of \(bench.`repeat`))" : ""
                Console.progress("ours, no capture\(tag)")
                let plain = try await ours(payload, expected: expected, capture: false, folder: "\(root)/round\(round)-ours", limit: limit)
                Console.progress(String(format: "  %.1f kB/s", plain.bytesPerSecond / 1000))
                Console.progress("ours, capture on\(tag)")
                let captured = try await ours(payload, expected: expected, capture: true, folder: "\(root)/round\(round)-capture", limit: limit)
                Console.progress(String(format: "  %.1f kB/s", captured.bytesPerSecond / 1000))
                Console.progress("Bumble's bench\(tag)")
                let theirs = try await Self.bumbleRun(spec, mode: .gatt, components: bumble, size: size, folder: "\(root)/round\(round)-bumble",
                                                      limit: limit)
                Console.progress(String(format: "  %.1f kB/s%@", theirs.bytesPerSecond / 1000,
                                        theirs.gaps > 0 ? " (\(theirs.gaps) sequence gaps: the controller lost notifications)" : ""))
                rounds.append(TransferBenchRound(ours: plain, captured: captured, bumble: theirs))
                if !plain.intact || !captured.intact { break }
            }
        } catch let error as BenchError {
            Console.error("\(error)")
            throw ExitCode(1)
        }

        let report = TransferBenchReport(backend: spec.description, framing: "244-byte chunks, ATT_MTU 247", bumbleName: "bumble-bench",
                                         ceilingUnit: PayloadFraming.notification(chunk: BumbleBenchRun.packetSize).unit,
                                         size: size, rounds: rounds, workDirectory: root)
        if bench.json { try Console.json(report) } else { Console.line(report.text) }
        if !report.intact {
            Console.error("our payload arrived different from the one sent (see \(root))")
            throw ExitCode(1)
        }
    }

    /// Our transfer once, on a fresh backend: node 0 notifies `payload`, node 1 receives it.
    private func ours(_ payload: [UInt8], expected: String, capture: Bool, folder: String,
                      limit: Duration) async throws -> OurTransferRun {
        let capturePath = "\(folder)/transfer.pcap"
        var arguments = ["--controller", bench.controller, "--work-dir", folder, "--log-level", bench.logLevel.rawValue]
        if capture { arguments += ["--capture", capturePath] }
        let options = try ControllerOptions.parse(arguments)
        let session = try await ControllerSession.open(options, count: 2)
        let hosts = try await session.startHosts()
        let profile = TransferProfile(gate: RSSIGate(minimum: -127, allowUnavailable: true),
                                      mtu: BumbleBenchRun.attMTU,
                                      payloadLimit: max(TransferReassembler.defaultLimit, payload.count))
        let peripheral = TransferPeripheral(host: hosts[0], profile: profile)
        let central = TransferCentral(host: hosts[1], profile: profile)
        let advertising = OneShot<Void>()
        let outcome = try? await withTimeout(limit, what: "the transfer") {
            async let sender = peripheral.run(.send(payload)).outcome { event in
                if case .advertising = event { advertising.resolve(()) }
            }
            // btvirt reports an advertiser only while it advertises: the central starts then.
            await advertising.wait()
            async let receiver = central.run(.receive(reply: .echoPrefix)).outcome()
            return (await sender, await receiver)
        }
        advertising.resolve(())
        await session.close()
        guard let (sent, received) = outcome else {
            throw BenchError.run("our transfer did not end within \(limit) (logs in \(folder))")
        }
        let summary: TransferSummary
        switch (sent, received) {
        case (.success, let .success(value)): summary = value
        case let (.failure(error), _), let (_, .failure(error)):
            throw BenchError.run("our transfer failed: \(error) (logs in \(folder))")
        }
        var run = OurTransferRun(bytes: payload.count, receivedBytes: summary.bytes, seconds: summary.seconds,
                                 bytesPerSecond: summary.bytesPerSecond,
                                 intact: summary.sha256 == expected && summary.bytes == payload.count, credits: nil)
        if capture {
            let paths = (0..<2).compactMap { options.capturePath(index: $0, count: 2) }
            if bench.spec.isRootcanal {
                do {
                    run.credits = try CreditCadence.measure(capture: paths[0], aclBuffers: await hosts[0].aclBuffers)
                } catch {
                    Console.error("cannot read the credit cadence from \(paths[0]): \(error)")
                }
            }
            if !bench.keepCaptures { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        }
        return run
    }

    /// Bumble's bench once, on a fresh backend of the same kind.
    static func bumbleRun(_ spec: BackendSpec, mode: BumbleBenchRun.Mode, components: ComponentLocator.BumbleBench, size: Int,
                          folder: String, limit: Duration) async throws -> BumbleBenchRun.Result {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let backend: any ControllerBackend
        do {
            backend = try await startBackend(spec, workDirectory: folder)
        } catch {
            Console.error("\(error)")
            throw ExitCode(3)
        }
        do {
            let run = BumbleBenchRun(mode: mode, components: components, transport: try BumbleBenchRun.transport(for: backend.sharedEndpoint),
                                     folder: folder, limit: limit)
            let result = try await run.run(size: size)
            await backend.shutdown()
            return result
        } catch {
            await backend.shutdown()
            throw error
        }
    }
}

extension BackendSpec {
    var isRootcanal: Bool { if case .rootcanal = self { true } else { false } }
}
