import ArgumentParser
import Foundation

struct BenchCaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Time and peak memory of inspect and check on large synthetic captures.",
        discussion: """
        For each size, writes a synthetic pcap of a long transfer (HCI commands and events, a \
        connection, 64-byte notification chunks; every check passes on it) into the work folder, \
        then runs this executable's own `inspect` and `check` on it as child processes, output to \
        /dev/null, and reports each one's time and peak resident memory (ru_maxrss from \
        wait4). Reading streams, so peak memory should not grow with the file: the ratio of the \
        largest capture's peak to the smallest's says whether it does. Exits 1 when a child fails.

        Examples:
          blueproof bench capture                        20 MB and 200 MB
          blueproof bench capture --size 50 --json
        """
    )

    @Option(name: .long, help: ArgumentHelp("Capture size in MB (10^6 bytes); repeat for several (default: 20 and 200).",
                                            valueName: "MB"))
    var size: [Int] = [20, 200]

    @Option(name: .long, help: ArgumentHelp("Where the captures go (default: a new temporary folder).", valueName: "path"))
    var workDir: String?

    @Flag(name: .long, help: "Keep the captures (else they are removed).")
    var keepCaptures = false

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    /// The most either command may hold at any size (issue 11).
    static let peakRSSTarget = 100 * 1_000_000

    func validate() throws {
        guard !size.isEmpty, size.allSatisfy({ $0 > 0 }) else { throw ValidationError("--size must be at least 1 MB") }
    }

    func run() async throws {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = workDir ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("blueproof-bench-capture-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if !keepCaptures { try? FileManager.default.removeItem(atPath: folder) } }

        var runs: [CaptureBenchRun] = []
        for megabytes in size.sorted() {
            let path = "\(folder)/transfer-\(megabytes)MB.pcap"
            Console.progress("writing \(path)")
            let packets = try SyntheticTransferCapture.write(to: path, bytes: megabytes * 1_000_000)
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            Console.progress("inspect \(path)")
            let inspect = try ChildUsage.run(executable, ["inspect", path])
            Console.progress("check \(path)")
            let check = try ChildUsage.run(executable, ["check", path])
            runs.append(CaptureBenchRun(bytes: bytes, packets: packets, inspect: inspect, check: check))
            if !keepCaptures { try? FileManager.default.removeItem(atPath: path) }
        }
        let result = CaptureBenchResult(build: BenchMeshCommand.buildKind, runs: runs, peakRSSTarget: Self.peakRSSTarget)
        if json { try Console.json(result) } else { Console.line(result.text) }
        if runs.contains(where: { $0.inspect.status != 0 || $0.check.status != 0 }) { throw ExitCode(1) }
    }
}

/// `inspect` and `check` on one capture.
struct CaptureBenchRun: Encodable {
    var bytes: Int
    var packets: Int
    var inspect: ChildUsage
    var check: ChildUsage
}

/// What `blueproof bench capture` prints: each run, and the largest capture against the smallest.
struct CaptureBenchResult: Encodable {
    struct Ratio: Encodable {
        var bytes: Double
        var inspectPeakRSS: Double
        var checkPeakRSS: Double
        var inspectSeconds: Double
        var checkSeconds: Double
    }

    var build: String
    var runs: [CaptureBenchRun]
    /// Largest capture over smallest, when there are two sizes or more.
    var ratio: Ratio?
    var peakRSSTarget: Int
    /// Every child stayed under ``peakRSSTarget``.
    var targetMet: Bool

    init(build: String, runs: [CaptureBenchRun], peakRSSTarget: Int) {
        self.build = build
        self.runs = runs
        self.peakRSSTarget = peakRSSTarget
        targetMet = runs.allSatisfy { max($0.inspect.peakRSSBytes, $0.check.peakRSSBytes) < peakRSSTarget }
        if let small = runs.first, let large = runs.last, runs.count > 1 {
            ratio = Ratio(bytes: Double(large.bytes) / Double(small.bytes),
                          inspectPeakRSS: Double(large.inspect.peakRSSBytes) / Double(small.inspect.peakRSSBytes),
                          checkPeakRSS: Double(large.check.peakRSSBytes) / Double(small.check.peakRSSBytes),
                          inspectSeconds: large.inspect.seconds / small.inspect.seconds,
                          checkSeconds: large.check.seconds / small.check.seconds)
        }
    }

    var text: String {
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
        func usage(_ child: ChildUsage) -> String {
            let failed = child.status == 0 ? "" : " (exit \(child.status))"
            return String(format: "%7.2f s  peak RSS %@", child.seconds, megabytes(child.peakRSSBytes)) + failed
        }
        var lines = ["capture bench (\(build) build): inspect and check as child processes, output to /dev/null"]
        for run in runs {
            lines.append("  \(megabytes(run.bytes)), \(run.packets) packets")
            lines.append("    inspect  \(usage(run.inspect))")
            lines.append("    check    \(usage(run.check))")
        }
        if let ratio {
            lines.append(String(format: "  largest / smallest: size %.1fx; peak RSS inspect %.2fx, check %.2fx; time inspect %.1fx, check %.1fx",
                                ratio.bytes, ratio.inspectPeakRSS, ratio.checkPeakRSS, ratio.inspectSeconds, ratio.checkSeconds))
        }
        lines.append("  target: peak RSS under \(megabytes(peakRSSTarget)) for both: \(targetMet ? "met" : "NOT met")")
        return lines.joined(separator: "\n")
    }
}
