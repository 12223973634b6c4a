import BlueproofCapture
import BlueproofWire
import Foundation
import BlueproofTestSupport
import Testing

/// The `blueproof` executable end to end: exit codes, JSON, captures, inspect.
@Suite("blueproof command line", .serialized)
struct CLITests {
    @Test("probe on btvirt passes, writes a capture per controller, and inspect reads them back",
          .requires(.cli, .btvirt, .preload))
    func probeThenInspect() throws {
        let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
        let folder = try WorkFolder("cli-probe")
        defer { folder.cleanUp() }
        let probe = try run(cli, ["probe", "--json", "--capture", folder.file("probe.pcap")])
        #expect(probe.status == 0, "stderr: \(probe.stderr)")
        let output = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any]
        #expect(output?["passed"] as? Bool == true)
        let captures = output?["captures"] as? [String] ?? []
        #expect(captures == [folder.file("probe-node0.pcap"), folder.file("probe-node1.pcap")])

        for capture in captures {
            let file = try CaptureReader.read(path: capture)
            let inspected = try run(cli, ["inspect", "--json", capture])
            #expect(inspected.status == 0, "stderr: \(inspected.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any]
            let packets = json?["packets"] as? [[String: Any]] ?? []
            #expect(packets.count == file.records.count)
            #expect(packets.first?["name"] as? String == "Reset")
            #expect(packets.contains { $0["name"] as? String == "LE Connection Complete" })

            let text = try run(cli, ["inspect", capture])
            #expect(text.status == 0)
            // A header line, one line per packet, then the count.
            #expect(text.stdout.split(separator: "\n").count == file.records.count + 2)
            #expect(text.stdout.hasSuffix("\(file.records.count) packet(s)\n"))
        }
    }

    @Test("inspect of a capture cut short prints its complete packets and exits 1", .requires(.cli))
    func inspectTruncated() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let folder = try WorkFolder("cli-cut")
        defer { folder.cleanUp() }
        let path = folder.file("cut.pcap")
        let writer = try PcapWriter(path: path)
        for index in 0..<3 {
            writer.record(CaptureRecord(timestampMicros: 1_000_000 + Int64(index), direction: .sent,
                                        packet: HCIReset().packet))
        }
        writer.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.dropLast(2).write(to: URL(fileURLWithPath: path))

        let result = try run(cli, ["inspect", path])
        #expect(result.status == 1)
        #expect(result.stdout.components(separatedBy: "Reset").count - 1 == 2, "stdout: \(result.stdout)")
        #expect(result.stderr.contains("ends early"), "stderr: \(result.stderr)")
    }

    @Test("inspect of a file that is no capture exits 2 with the reason", .requires(.cli))
    func inspectGarbage() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let folder = try WorkFolder("cli-garbage")
        defer { folder.cleanUp() }
        let path = folder.file("notes.txt")
        try Data("not a capture at all\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try run(cli, ["inspect", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(path), "stderr: \(result.stderr)")
    }

    @Test("a bad --controller is a usage error: exit 2 and the accepted forms", .requires(.cli))
    func badController() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let result = try run(cli, ["probe", "--controller", "bluetooth"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("rootcanal") && result.stderr.contains("unix:PATH"), "stderr: \(result.stderr)")
    }

    @Test("a controller that cannot be opened is an environment error: exit 3", .requires(.cli))
    func unreachableController() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let result = try run(cli, ["probe", "--count", "1", "--controller", "unix:/nonexistent/bt-server-le"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("/nonexistent/bt-server-le"), "stderr: \(result.stderr)")
    }
}
