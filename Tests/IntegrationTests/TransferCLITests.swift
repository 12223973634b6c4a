import BlueproofBackend
import BlueproofCapture
import BlueproofTestSupport
import BlueproofTransfer
import BlueproofWire
import Foundation
import Testing

/// `blueproof transfer demo --file X`: 1 MB byte-exact on each backend, with captures tshark
/// decodes.
@Suite("blueproof transfer demo", .serialized)
struct TransferCLITests {
    @Test("btvirt: transfer demo moves a 1 MB file byte-exact", .requires(.cli, .btvirt, .preload, .tshark),
          .timeLimit(.minutes(3)))
    func demoBTVirt() throws {
        try RequiredComponent.require(.cli, .btvirt, .preload, .tshark)
        try demo("btvirt")
    }

    @Test("Rootcanal: transfer demo moves a 1 MB file byte-exact", .requires(.cli, .rootcanal, .preload, .tshark),
          .timeLimit(.minutes(3)))
    func demoRootcanal() throws {
        try RequiredComponent.require(.cli, .rootcanal, .preload, .tshark)
        try demo("rootcanal")
    }

    private func demo(_ controller: String) throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let folder = try WorkFolder("cli-transfer-\(controller)")
        defer { folder.cleanUp() }
        let payload = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let input = folder.file("input.bin")
        try Data(payload).write(to: URL(fileURLWithPath: input))
        let result = try run(cli, ["transfer", "demo", "--file", input, "--controller", controller, "--json",
                                   "--capture", folder.file("demo.pcap"), "--output", folder.file("output.bin")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["intact"] as? Bool == true, "\(result.stdout)")
        #expect(json?["receivedSHA256"] as? String == SHA256.hex(payload))
        #expect(json?["receivedBytes"] as? Int == payload.count)
        #expect(FileManager.default.contents(atPath: folder.file("output.bin")) == Data(payload))
        #expect(result.stderr.contains("100%"), "progress shown: \(result.stderr)")
        for node in 0..<2 {
            let path = folder.file("demo-node\(node).pcap")
            try checkCapture(path, expectedCount: try CaptureReader.read(path: path).records.count)
        }
        print("\(controller): \(json?["bytesPerSecond"] ?? "?") B/s over \(json?["seconds"] ?? "?") s")
    }

    // MARK: transfer central and peripheral, two processes

    /// Issue 14: `transfer central` says how another host joins the backend it started (as
    /// `peripheral`, `scan` and `advertise` do), and --json's `reply` carries bytes as hex (it
    /// was decoded as UTF-8, losing what was not).
    @Test("btvirt: transfer central prints how to join its backend; a peripheral joining it reports a binary write-back as hex",
          .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
    func centralJoinHintAndHexReply() async throws {
        let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
        let folder = try WorkFolder("cli-transfer-join")
        defer { folder.cleanUp() }
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: 0xFF - $0) }
        #expect(String(validating: payload, as: UTF8.self) == nil, "the payload is not UTF-8")
        let input = folder.file("input.bin")
        try Data(payload).write(to: URL(fileURLWithPath: input))
        let central = try LiveCLI(cli, ["transfer", "central", "--allow-unavailable-rssi", "--json", "--timeout", "30"])
        defer { central.stop() }
        let hint = try #require(await central.line(within: .seconds(20)) { $0.contains("join this backend with --controller ") },
                                "\(central.lines)")
        let controller = try #require(hint.split(separator: " ").last.map(String.init))
        let peripheral = try await LiveCLI.run(cli, ["transfer", "peripheral", "--controller", controller,
                                                            "--file", input, "--json", "--timeout", "30"])
        #expect(peripheral.status == 0, "stderr: \(peripheral.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(peripheral.stdout.utf8)) as? [String: Any]
        #expect(json?["reply"] as? String == hex(payload), "\(peripheral.stdout)")
        #expect(json?["bytes"] as? Int == payload.count)
        #expect(await central.line(within: .seconds(10)) { $0.contains("\"reply\" : \"\(hex(payload))\"") } != nil,
                "the central's report: \(central.lines)")
    }

    // MARK: Behind the radio proxy

    /// The repository's scenario folder, from this file's place in it.
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Conformance/scenarios")

    @Test("btvirt behind the proxy: a strict gate passes at the scenario's -40 dBm, which btvirt alone never reports",
          .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
    func demoGateThroughProxy() throws {
        let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
        let strict = ["transfer", "demo", "--size", "20000", "--require-rssi", "--json"]
        let alone = try run(cli, strict + ["--timeout", "2"])
        #expect(alone.status == 1, "btvirt reports RSSI 127, which a strict gate refuses: \(alone.stderr)")
        let proxied = try run(cli, strict + ["--scenario", Self.scenarios.appendingPathComponent("close-range.yaml").path])
        #expect(proxied.status == 0, "stderr: \(proxied.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(proxied.stdout.utf8)) as? [String: Any]
        #expect(json?["intact"] as? Bool == true, "\(proxied.stdout)")
        #expect((json?["radioFaults"] as? [Any])?.isEmpty == true, "close range injects nothing")
    }

    @Test("btvirt behind the proxy: withheld credits stall the demo, it resumes intact, and each fault is reported with its time",
          .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
    func demoWithheldCredits() throws {
        let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
        let result = try run(cli, ["transfer", "demo", "--size", "300000", "--json", "--scenario",
                                   Self.scenarios.appendingPathComponent("withheld-credits.yaml").path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["intact"] as? Bool == true, "\(result.stdout)")
        let faults = (json?["radioFaults"] as? [[String: Any]]) ?? []
        let kinds = faults.compactMap { $0["kind"] as? String }
        #expect(kinds == ["buffer-size", "withhold-credits", "release-credits"], "\(faults)")
        let times = faults.compactMap { $0["time"] as? Double }
        #expect(times.count == 3 && times[1] == 1.0 && times[2] == 3.0, "\(times)")
        #expect((json?["seconds"] as? Double ?? 0) >= 2.0, "the 2 s without credits is part of the transfer")
    }
}
