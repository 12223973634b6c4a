import BlueproofTestSupport
import Foundation
import Testing

/// `blueproof bench transfer`: the three throughputs come out, their ratios agree with them,
/// and our payload arrived byte-exact. No figure is judged: speed is a benchmark's business.
@Suite("blueproof bench transfer", .serialized)
struct BenchCLITests {
    @Test("btvirt: bench transfer measures ours, ours with capture, and Bumble's bench",
          .requires(.btvirt, .preload, .bumble, .cli), .timeLimit(.minutes(3)))
    func benchTransferBTVirt() throws {
        let cli = try RequiredComponent.require(.btvirt, .preload, .bumble, .cli)[3]
        let folder = try WorkFolder("cli-bench-transfer")
        defer { folder.cleanUp() }
        let result = try run(cli, ["bench", "transfer", "--size", "100000", "--json", "--work-dir", folder.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                "stdout: \(result.stdout)")
        func rate(_ key: String) -> Double {
            ((json[key] as? [String: Any])?["bytesPerSecond"] as? NSNumber)?.doubleValue ?? -1
        }
        let (ours, captured, bumble) = (rate("ours"), rate("oursCapture"), rate("bumble"))
        #expect(ours > 0 && captured > 0 && bumble > 0, "\(result.stdout)")
        let ratio = (json["ratio"] as? NSNumber)?.doubleValue ?? -1
        #expect(abs(ratio - ours / bumble) <= 1e-9 * max(1, ratio), "ratio \(ratio) vs \(ours) / \(bumble)")
        let cost = (json["captureCostPercent"] as? NSNumber)?.doubleValue ?? .nan
        #expect(abs(cost - (1 - captured / ours) * 100) <= 1e-6, "capture cost \(cost)")
        #expect(json["intact"] as? Bool == true)
        #expect(json["bytes"] as? Int == 100_000)
        let runs = json["oursRuns"] as? [[String: Any]] ?? []
        #expect(runs.count == 2)
        for run in runs {
            #expect(run["intact"] as? Bool == true, "\(run)")
            #expect(run["receivedBytes"] as? Int == 100_000, "\(run)")
        }
        let bumbleRuns = json["bumbleRuns"] as? [[String: Any]] ?? []
        // Bumble sends whole 244-byte packets: at least the size asked for.
        #expect((bumbleRuns.first?["bytes"] as? Int ?? 0) >= 100_000, "\(bumbleRuns)")
        let targets = json["targets"] as? [[String: Any]] ?? []
        #expect(targets.contains { ($0["name"] as? String)?.contains("Bumble") == true }, "\(targets)")
        #expect(result.stderr.contains("Bumble's bench"), "progress on stderr: \(result.stderr)")
        // Captures are removed unless --keep-captures.
        let leftovers = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".pcap") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// `bench spark` as the JSON reports it: ours twice, Bumble's L2CAP bench once, the file intact.
    static func benchSpark(_ controller: String, size: Int, folder: WorkFolder) throws -> [String: Any] {
        let cli = try RequiredComponent.require(.cli)[0]
        let result = try run(cli, ["bench", "spark", "--controller", controller, "--size", "\(size)", "--json", "--work-dir", folder.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("Bumble's L2CAP bench"), "progress on stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "stdout: \(result.stdout)")
        #expect(json["intact"] as? Bool == true && json["bytes"] as? Int == size, "\(result.stdout)")
        #expect(json["bumbleName"] as? String == "bumble-bench l2cap")
        let runs = json["oursRuns"] as? [[String: Any]] ?? []
        #expect(runs.count == 2 && runs.allSatisfy { $0["receivedBytes"] as? Int == size && $0["intact"] as? Bool == true }, "\(runs)")
        // Bumble counts 8190 bytes per 8192-byte packet: at least the size asked for.
        let bumble = json["bumbleRuns"] as? [[String: Any]] ?? []
        #expect((bumble.first?["bytes"] as? Int ?? 0) >= size && (bumble.first?["bytesPerSecond"] as? NSNumber)?.doubleValue ?? 0 > 0, "\(bumble)")
        let leftovers = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".bin") } ?? []
        #expect(leftovers.isEmpty, "the file and the captures are removed: \(leftovers)")
        return json
    }

    @Test("btvirt: bench spark sends a Spark file byte-exact, with and without capture, and runs Bumble's L2CAP bench with the same MPS",
          .requires(.btvirt, .preload, .bumble, .cli), .timeLimit(.minutes(3)))
    func benchSparkBTVirt() throws {
        try RequiredComponent.require(.btvirt, .preload, .bumble)
        let folder = try WorkFolder("cli-bench-spark")
        defer { folder.cleanUp() }
        let json = try Self.benchSpark("btvirt", size: 300_000, folder: folder)
        // btvirt's one 192-byte ACL buffer: five per K-frame.
        #expect((json["framing"] as? String)?.contains("MPS 956") == true, "\(json["framing"] ?? "")")
        #expect(json["ceiling"] == nil, "btvirt has no credit cadence to measure")
    }

    @Test("Rootcanal: bench spark measures the credit ceiling from the capture, with K-frames of whole 27-byte buffers",
          .requires(.rootcanal, .bumble, .cli), .timeLimit(.minutes(4)))
    func benchSparkRootcanal() throws {
        try RequiredComponent.require(.rootcanal, .bumble)
        let folder = try WorkFolder("cli-bench-spark-rc")
        defer { folder.cleanUp() }
        let json = try Self.benchSpark("rootcanal", size: 300_000, folder: folder)
        #expect((json["framing"] as? String)?.contains("MPS 1022") == true, "\(json["framing"] ?? "")")
        let ceiling = try #require(json["ceiling"] as? [String: Any], "\(json)")
        // A 65535-byte SDU at MPS 1022: 64 full K-frames of 38 packets and one of 65537 - 64 x 1022 + 4 bytes.
        #expect(ceiling["packetsPerPDU"] as? Int == 2437, "\(ceiling)")
        #expect(ceiling["bufferSize"] as? Int == 27)
    }
}
