import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofWire
import Foundation
import BlueproofTestSupport
import Testing

/// Every integration test runs against real controller processes; they run one at a time so
/// that two link probes never compete for the 2 cores and time out on each other's account.
@Suite("Integration", .serialized)
struct Integration {}

/// What one probe run over two controllers of a backend left behind.
struct ProbeRun {
    var report: ProbeReport
    var facts: [BackendFact]
    var violations: [[String]]
    /// Per node: capture path and the packets its writer counted.
    var captures: [(path: String, packets: Int, writeError: CaptureError?)]
}

/// Starts `spec`, opens two controllers each recording to `nodeN.pcap`, probes them, closes
/// everything and shuts the backend down.
func probeTwoControllers(_ spec: BackendSpec, in folder: WorkFolder) async throws -> ProbeRun {
    let writers = try (0..<2).map { try PcapWriter(path: folder.file("node\($0).pcap")) }
    let (report, facts, violations) = try await withBackend(spec, in: folder.file(spec.description)) { backend in
        var controllers: [HCIController] = []
        do {
            for writer in writers {
                let controller = HCIController(transport: try await backend.openController(capture: writer))
                await controller.start()
                controllers.append(controller)
            }
        } catch {
            for controller in controllers { await controller.close() }
            throw error
        }
        let report = await ControllerProbe().run(controllers)
        var violations: [[String]] = []
        for controller in controllers {
            violations.append(await controller.violations)
            await controller.close()
        }
        return (report, backend.facts, violations)
    }
    for writer in writers { writer.close() }
    return ProbeRun(report: report, facts: facts, violations: violations,
                    captures: writers.map { ($0.path, $0.packetCount, $0.writeError) })
}

extension Integration {
    @Suite("Probe")
    struct ProbeTests {
        @Test("probe over btvirt: 2 controllers pass, LE buffers 192 x 1, RSSI n/a, captures decode",
              .requires(.btvirt, .preload, .tshark), .timeLimit(.minutes(3)))
        func probeBTVirt() async throws {
            try RequiredComponent.require(.btvirt, .preload, .tshark)
            let folder = try WorkFolder("probe-btvirt")
            defer { folder.cleanUp() }
            let run = try await probeTwoControllers(.btvirt, in: folder)
            let report = run.report

            #expect(report.passed, "\(json(report))")
            try #require(report.controllers.count == 2)
            let addresses = report.controllers.map(\.address)
            for profile in report.controllers {
                #expect(profile.address.flatMap(BDAddress.init) != nil, "controller \(profile.index) has no address")
                #expect(profile.leACLBuffers?.length == 192, "\(String(describing: profile.leACLBuffers))")
                #expect(profile.leACLBuffers?.count == 1, "\(String(describing: profile.leACLBuffers))")
                #expect(profile.commandRoundTrip?.samples == 50)
                #expect(profile.endpoint.hasPrefix("unix:\(folder.path)/"), "\(profile.endpoint)")
            }
            #expect(addresses[0] != addresses[1], "both controllers answer \(String(describing: addresses[0]))")
            try #require(report.links.count == 1)
            let link = report.links[0]
            #expect(link.advertisementSeen)
            #expect(link.reportedRSSI == "n/a", "btvirt reports RSSI 127 (not available)")
            #expect(link.connected)
            #expect(link.disconnected)
            #expect(link.absentPeer?.contains("Connection Failed to be Established") == true,
                    "btvirt fails a connection to an absent peer at once: \(link.absentPeer ?? "-")")
            #expect(run.violations == [[], []])

            let workaround = run.facts.first { $0.name == "AF_ALG workaround" }?.value
            if let reason = AFALGSupport.missingReason() {
                #expect(workaround?.hasPrefix("used") == true, "kernel lacks AF_ALG (\(reason)); fact: \(String(describing: workaround))")
            } else {
                #expect(workaround?.hasPrefix("not needed") == true, "fact: \(String(describing: workaround))")
            }

            for capture in run.captures {
                #expect(capture.writeError == nil)
                let file = try checkCapture(capture.path, expectedCount: capture.packets)
                // The probe starts every controller with HCI_Reset (opcode 0x0C03).
                #expect(file.records.first?.packet == H4Packet(type: .command, payload: [0x03, 0x0C, 0x00]))
            }
            print("measured btvirt: probe \(report.durationMilliseconds) ms; round trip "
                + report.controllers.map { $0.commandRoundTrip?.description ?? "-" }.joined(separator: " | ")
                + "; LE buffers " + report.controllers.map { $0.leACLBuffers?.description ?? "-" }.joined(separator: ", ")
                + "; packets " + run.captures.map { "\($0.packets)" }.joined(separator: ", "))
        }

        @Test("probe over Rootcanal: 2 controllers pass, LE buffers 27 x 20, RSSI is a number, captures decode",
              .requires(.rootcanal, .preload, .tshark), .timeLimit(.minutes(3)))
        func probeRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload, .tshark)
            let folder = try WorkFolder("probe-rootcanal")
            defer { folder.cleanUp() }
            let run = try await probeTwoControllers(.rootcanal, in: folder)
            let report = run.report

            #expect(report.passed, "\(json(report))")
            try #require(report.controllers.count == 2)
            for profile in report.controllers {
                #expect(profile.address.flatMap(BDAddress.init) != nil, "controller \(profile.index) has no address")
                #expect(profile.leACLBuffers?.length == 27, "\(String(describing: profile.leACLBuffers))")
                #expect(profile.leACLBuffers?.count == 20, "\(String(describing: profile.leACLBuffers))")
                #expect(profile.endpoint.hasPrefix("tcp:127.0.0.1:"), "\(profile.endpoint)")
            }
            #expect(report.controllers[0].address != report.controllers[1].address)
            try #require(report.links.count == 1)
            let link = report.links[0]
            #expect(link.advertisementSeen)
            let rssi = try #require(link.reportedRSSI)
            #expect(rssi.wholeMatch(of: #/-?\d+ dBm/#) != nil, "RSSI \(rssi) is not a number")
            #expect(link.connected)
            #expect(link.disconnected)
            #expect(run.violations == [[], []])
            #expect(run.facts.contains { $0.name == "hci port" })

            for capture in run.captures {
                #expect(capture.writeError == nil)
                let file = try checkCapture(capture.path, expectedCount: capture.packets)
                #expect(file.records.first?.packet == H4Packet(type: .command, payload: [0x03, 0x0C, 0x00]))
            }
            print("measured rootcanal: probe \(report.durationMilliseconds) ms; round trip "
                + report.controllers.map { $0.commandRoundTrip?.description ?? "-" }.joined(separator: " | ")
                + "; LE buffers " + report.controllers.map { $0.leACLBuffers?.description ?? "-" }.joined(separator: ", ")
                + "; RSSI \(rssi); packets " + run.captures.map { "\($0.packets)" }.joined(separator: ", "))
        }
    }
}
