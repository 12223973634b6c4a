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
}
