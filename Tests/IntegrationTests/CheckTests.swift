import BlueproofBackend
import BlueproofTestSupport
import BlueproofTransfer
import Foundation
import Testing

/// `blueproof check` on captures of real runs: our own pcaps of `transfer demo`, and a btsnoop
/// that Bumble wrote of its side of a transfer (a capture recorded elsewhere).
extension Integration {
    @Suite("blueproof check")
    struct CheckTests {
        @Test("btvirt: the transfer demo's captures pass every check", .requires(.btvirt, .preload, .cli),
              .timeLimit(.minutes(3)))
        func demoCapturesBTVirt() throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("check-demo")
            defer { folder.cleanUp() }
            let capture = folder.file("demo.pcap")
            let demo = try run(cli, ["transfer", "demo", "--size", "200000", "--controller", "btvirt", "--capture", capture])
            #expect(demo.status == 0, "stderr: \(demo.stderr)")
            // --size N sends the pattern i % 251.
            let payload = folder.file("payload.bin")
            try Data(pattern(200_000)).write(to: URL(fileURLWithPath: payload))
            let reports = try check(cli, [folder.file("demo-node0.pcap"), folder.file("demo-node1.pcap"), "--payload", payload],
                                    expectedStatus: 0)
            try #require(reports.count == 2)
            for report in reports {
                for check in report.checks {
                    #expect(check.verdict != "fail", "\(report.file): \(check.id) \(check.reason) \(check.frames)")
                }
            }
            // Node 0 is the peripheral, the sender.
            let sender = reports[0].verdicts
            for id in ["CBT/FLOW/BI-01", "CAP/CONN/BV-01", "CAP/ACL/BV-01", "CAP/ATT/BV-01",
                       "CBT/CHUNK/BV-01", "CBT/CHUNK/BV-02", "CBT/GATT/BV-03", "CAP/XFER/BV-01"] {
                #expect(sender[id] == "pass", "\(id): \(reports[0].checks.first { $0.id == id }?.reason ?? "missing")")
            }

            // A capture cut mid-transfer (a killed run) is still checked, up to its last packet.
            let whole = try #require(FileManager.default.contents(atPath: folder.file("demo-node0.pcap")))
            let cut = folder.file("cut.pcap")
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
            let cutReport = try #require(try check(cli, [cut], expectedStatus: 0).first)
            #expect(cutReport.truncated != nil)
            #expect(cutReport.verdicts["CBT/FLOW/BI-01"] == "pass")
            #expect(cutReport.verdicts["CBT/CHUNK/BV-02"] == "inconclusive")
        }

        @Test("btvirt: a btsnoop written by Bumble is read and checked", .requires(.bumble, .btvirt, .preload, .cli),
              .timeLimit(.minutes(3)))
        func bumbleBTSnoopBTVirt() async throws {
            let cli = try RequiredComponent.require(.cli, .bumble, .btvirt, .preload)[0]
            let folder = try WorkFolder("check-bumble")
            defer { folder.cleanUp() }
            let payload = pattern(50_000)
            let snoop = folder.file("bumble.btsnoop")
            try await withHosts(.btvirt, count: 1, in: folder) { nodes in
                let peripheral = TransferPeripheral(host: nodes.hosts[0], profile: openGateProfile()).run(.send(payload))
                try await BumblePeer.withPeer(
                    "transfer-central", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("central.log"),
                    arguments: ["--allow-unavailable-rssi", "--min-rssi", "-127", "--mtu", "247"],
                    environment: ["BUMBLE_SNOOPER": "btsnoop:file:\(snoop)"]) { central in
                    _ = try await peripheral.outcome { _ in }.get()
                    _ = try await central.next(event: "done", within: .seconds(30))
                    // Bumble closes its snoop file when the transport closes, on a clean exit.
                    _ = try await central.exit(within: .seconds(10))
                }
            }
            let payloadPath = folder.file("payload.bin")
            try Data(payload).write(to: URL(fileURLWithPath: payloadPath))
            let reports = try check(cli, [snoop, "--payload", payloadPath], expectedStatus: nil)
            let report = try #require(reports.first)
            #expect(report.format == "btsnoop")
            #expect(report.packetCount > 100)
            #expect(report.truncated == nil)
            // The receiver's view: 244-byte chunks at ATT_MTU 247, ended by EOM, byte-exact.
            for id in ["CBT/CHUNK/BV-01", "CBT/CHUNK/BV-02", "CBT/GATT/BV-03", "CAP/XFER/BV-01", "CAP/ATT/BV-01",
                       "CAP/CONN/BV-01"] {
                #expect(report.verdicts[id] == "pass", "\(id): \(report.checks.first { $0.id == id }?.reason ?? "missing")")
            }
            for check in report.checks { print("bumble btsnoop: \(check.verdict) \(check.id) \(check.reason)") }
        }

        /// Runs `blueproof check --json` and decodes its reports.
        private func check(_ cli: String, _ arguments: [String], expectedStatus: Int32?) throws -> [Report] {
            let result = try run(cli, ["check", "--json"] + arguments)
            if let expectedStatus { #expect(result.status == expectedStatus, "stdout: \(result.stdout)\nstderr: \(result.stderr)") }
            #expect(result.status != 2, "stderr: \(result.stderr)")
            return try JSONDecoder().decode([Report].self, from: Data(result.stdout.utf8))
        }

        struct Report: Decodable {
            struct Check: Decodable {
                var id: String
                var verdict: String
                var reason: String
                var frames: [Int]
            }
            var file: String
            var format: String
            var packetCount: Int
            var truncated: String?
            var checks: [Check]

            var verdicts: [String: String] { Dictionary(checks.map { ($0.id, $0.verdict) }, uniquingKeysWith: { first, _ in first }) }
        }
    }
}
