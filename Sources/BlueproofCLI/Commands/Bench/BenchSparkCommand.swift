import ArgumentParser
import BlueproofBackend
import BlueproofSpark
import BlueproofTransfer
import Foundation

/// `blueproof bench spark`: a Spark file over one credit-based channel against Bumble's own
/// L2CAP bench (issue 17).
struct BenchSparkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spark",
        abstract: "A Spark file over one credit-based channel, against Bumble's own L2CAP bench, with capture off and on.",
        discussion: """
        In one run on one backend kind, each round measures: (1) our Spark file transfer of \
        SIZE bytes (node 0 offers a data connection, node 1 accepts, node 0 sends the file; \
        timed from sendFile to the receiver's file verified against its SHA-256 in its cache \
        folder) with no capture, (2) the same with a pcap per node, (3) Bumble's bench \
        (bumble-bench, l2cap-server sending to l2cap-client, 8192-byte packets) between two \
        Bumble nodes on the same backend kind, with the channel parameters ours uses (MTU 65535, \
        the MPS ours picks for the controller's ACL buffers, \(SparkChannelNode.credits) credits). \
        Every measurement gets a fresh backend; with --repeat N the table shows each figure's median.

        On Rootcanal the capture also gives the controller's credit ceiling (from the cadence \
        of Number Of Completed Packets) and the payload ceiling it allows for Spark's framing.

        Targets are shown as met or not met; they never change the exit status. Exit 1 when a \
        run failed or our file arrived different, 3 when a component is missing.

        Examples:
          blueproof bench spark
          blueproof bench spark --controller rootcanal --size 2000000 --repeat 3 --json
        """
    )

    @Option(name: .long, help: "Bytes in the file.")
    var size: Int = 10_000_000

    @OptionGroup var bench: BumbleComparisonOptions

    func validate() throws {
        guard size > 0, UInt64(size) <= SparkLimits.maxFileBytes else { throw ValidationError("--size must be 1 byte to \(SparkLimits.maxFileBytes)") }
    }

    func run() async throws {
        bench.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let spec = bench.spec
        let bumble = try bench.bumble()
        let root = try bench.makeWorkDirectory()
        let limit = bench.limit(size: size)
        let file = "\(root)/spark-\(size).bin"
        let payload = (0..<size).map { UInt8($0 % 251) }
        try Data(payload).write(to: URL(fileURLWithPath: file))
        let expected = SparkDigest.hex(of: payload)
        var rounds: [TransferBenchRound] = []
        var mps = 0
        do {
            for round in 1...bench.`repeat` {
                let tag = bench.`repeat` > 1 ? " (round \(round) of \(bench.`repeat`))" : ""
                Console.progress("ours, no capture\(tag)")
                let plain: OurTransferRun
                (plain, mps) = try await SparkBenchRun(controller: bench.controller, logLevel: bench.logLevel, folder: "\(root)/round\(round)-ours", limit: limit)
                    .run(file: file, size: size, expected: expected, capture: false, credits: false)
                Console.progress(String(format: "  %.1f kB/s", plain.bytesPerSecond / 1000))
                Console.progress("ours, capture on\(tag)")
                let captureFolder = "\(root)/round\(round)-capture"
                let captured = try await SparkBenchRun(controller: bench.controller, logLevel: bench.logLevel, folder: captureFolder, limit: limit,
                                                       keepCaptures: bench.keepCaptures)
                    .run(file: file, size: size, expected: expected, capture: true, credits: spec.isRootcanal).run
                Console.progress(String(format: "  %.1f kB/s", captured.bytesPerSecond / 1000))
                Console.progress("Bumble's L2CAP bench\(tag)")
                let mode = BumbleBenchRun.Mode.l2cap(mtu: SparkLimits.maxFrameBytes, mps: mps, credits: Int(SparkChannelNode.credits))
                let theirs = try await BenchTransferCommand.bumbleRun(spec, mode: mode, components: bumble, size: size,
                                                                      folder: "\(root)/round\(round)-bumble", limit: limit)
                Console.progress(String(format: "  %.1f kB/s", theirs.bytesPerSecond / 1000))
                rounds.append(TransferBenchRound(ours: plain, captured: captured, bumble: theirs))
                if !plain.intact || !captured.intact { break }
            }
        } catch let error as BenchError {
            Console.error("\(error)")
            throw ExitCode(1)
        }
        try? FileManager.default.removeItem(atPath: file)

        let framing = PayloadFraming.creditBasedSDU(SparkLimits.maxFrameBytes, payload: SparkLimits.maxFrameBytes - SparkEnvelope.chunkOverhead,
                                                    mps: mps)
        let report = TransferBenchReport(backend: spec.description,
                                         framing: "one Spark file over a CoC, MTU \(SparkLimits.maxFrameBytes), MPS \(mps), \(SparkChannelNode.credits) credits",
                                         bumbleName: "bumble-bench l2cap", ceilingUnit: framing.unit, size: size, rounds: rounds, workDirectory: root)
        if bench.json { try Console.json(report) } else { Console.line(report.text) }
        if !report.intact {
            Console.error("our file arrived different from the one sent (see \(root))")
            throw ExitCode(1)
        }
    }
}
