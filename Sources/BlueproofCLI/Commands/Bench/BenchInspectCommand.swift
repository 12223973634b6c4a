import ArgumentParser
import BlueproofAsync
import BlueproofCapture
import Foundation

/// `blueproof bench inspect`: inspect, inspect --json and check against `tshark -r` on one file,
/// in one run (issue 16).
struct BenchInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Time inspect, inspect --json and check against tshark -r on one capture and print the ratios.",
        discussion: """
        Runs this executable's `inspect FILE`, `inspect --json FILE` and `check FILE`, and \
        `tshark -r FILE` (one summary line per packet, the same information level as inspect's \
        text), in turn, --runs times each, as child processes with their output to /dev/null; \
        prints each one's median time, packets per second and peak memory, and tshark's median \
        over each one's (how many times faster than tshark). Runs interleave, so a machine that \
        slows down slows all four alike. Without FILE, a synthetic transfer capture of --packets \
        packets is written first (and removed after). Exits 1 when a child fails.

        Examples:
          blueproof bench inspect btsnoop_hci.log
          blueproof bench inspect --packets 100000 --runs 5 --json
        """
    )

    @Argument(help: "The capture to read (default: a synthetic one of --packets packets).")
    var file: String?

    @Option(name: .long, help: "Packets of the synthetic capture, when no file is given.")
    var packets = 100_000

    @Option(name: .long, help: "Runs of each command; the median is reported.")
    var runs = 3

    @Option(name: .long, help: ArgumentHelp("The tshark to compare with (default: tshark on PATH).", valueName: "path"))
    var tshark: String?

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard runs >= 1, runs <= 50 else { throw ValidationError("--runs must be 1 to 50") }
        guard packets >= 1, packets <= 10_000_000 else { throw ValidationError("--packets must be 1 to 10,000,000") }
    }

    func run() async throws {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        guard let tsharkPath = tshark ?? Self.onPath("tshark") else {
            Console.error("tshark is not on PATH (apt-get install tshark) and --tshark was not given")
            throw ExitCode(3)
        }
        var path = file ?? ""
        var folder: String?
        if file == nil {
            let made = FileManager.default.temporaryDirectory.appendingPathComponent("blueproof-bench-inspect-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
            folder = made
            path = "\(made)/transfer.pcap"
            Console.progress("writing \(path)")
            // About 60 bytes a packet (never more than 62) in the synthetic transfer: ask for enough bytes, then count.
            _ = try SyntheticTransferCapture.write(to: path, bytes: packets * 62)
        }
        defer { if let folder { try? FileManager.default.removeItem(atPath: folder) } }
        let stream = try CaptureReader.open(path: path)
        while stream.nextEntry() != nil {}
        let frames = stream.frameNumber

        let commands: [(String, String, [String])] = [
            ("inspect", executable, ["inspect", path]),
            ("inspect --json", executable, ["inspect", "--json", path]),
            ("check", executable, ["check", path]),
            ("tshark -r", tsharkPath, ["-r", path]),
        ]
        var usages = Array(repeating: [ChildUsage](), count: commands.count)
        for round in 1...runs {
            Console.progress("round \(round) of \(runs)")
            for (index, command) in commands.enumerated() {
                usages[index].append(try ChildUsage.run(command.1, command.2))
            }
        }
        let result = InspectBenchResult(file: path, frames: frames, build: BenchMeshCommand.buildKind, runs: runs,
                                        rows: zip(commands, usages).map { InspectBenchResult.Row(name: $0.0.0, usages: $0.1) })
        if json { try Console.json(result) } else { Console.line(result.text) }
        if usages.joined().contains(where: { $0.status != 0 && $0.status != 1 }) { throw ExitCode(1) }
    }

    static func onPath(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// What `blueproof bench inspect` prints.
struct InspectBenchResult: Encodable {
    struct Row: Encodable {
        var name: String
        var medianSeconds: Double
        var packetsPerSecond: Double
        var peakRSSBytes: Int
        /// tshark's median time over this one's: how many times faster than tshark.
        var timesFasterThanTshark: Double?
        var statuses: [Int32]

        init(name: String, usages: [ChildUsage]) {
            self.name = name
            medianSeconds = median(usages.map(\.seconds)) ?? 0
            packetsPerSecond = 0
            peakRSSBytes = usages.map(\.peakRSSBytes).max() ?? 0
            statuses = usages.map(\.status)
        }
    }

    var file: String
    var frames: Int
    var build: String
    var runs: Int
    var rows: [Row]

    init(file: String, frames: Int, build: String, runs: Int, rows: [Row]) {
        self.file = file
        self.frames = frames
        self.build = build
        self.runs = runs
        let tshark = rows.last?.medianSeconds ?? 0
        self.rows = rows.map { row in
            var row = row
            row.packetsPerSecond = row.medianSeconds > 0 ? Double(frames) / row.medianSeconds : 0
            row.timesFasterThanTshark = row.medianSeconds > 0 ? tshark / row.medianSeconds : nil
            return row
        }
    }

    var text: String {
        var lines = ["inspect bench (\(build) build): \(file), \(frames) frames, median of \(runs) run(s), output to /dev/null"]
        for row in rows {
            let ratio = row.timesFasterThanTshark.map { String(format: "%6.2fx tshark", $0) } ?? ""
            let failed = row.statuses.allSatisfy { $0 == 0 || $0 == 1 } ? "" : " (exit \(row.statuses))"
            lines.append(String(format: "  %@ %8.3f s %12.0f packets/s  peak RSS %6.1f MB  ",
                                row.name.padding(toLength: 15, withPad: " ", startingAt: 0), row.medianSeconds,
                                row.packetsPerSecond, Double(row.peakRSSBytes) / 1e6) + ratio + failed)
        }
        return lines.joined(separator: "\n")
    }
}
