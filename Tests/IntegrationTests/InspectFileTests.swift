import BlueproofCapture
import BlueproofTestSupport
import BlueproofWire
import Foundation
import Testing

/// `inspect` and `check` on the file shapes other tools write: a pcapng merged from two
/// link types (mergecap), a btmon file with its notes and index records (issue 16).
@Suite("inspect and check: pcapng interfaces, btmon notes", .serialized)
struct InspectFileTests {
    static let t0: Int64 = 1_718_000_000_000_000

    @Test("a pcapng of interfaces 201 and 187 (mergecap): every packet, the guessed directions said, tshark's frames",
          .requires(.cli, .mergecap, .tshark))
    func mergedInterfaces() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let mergecap = try RequiredComponent.mergecap.require()
        let tshark = try RequiredComponent.tshark.require()
        let folder = try WorkFolder("inspect-pcapng")
        defer { folder.cleanUp() }
        let withDirection = try PcapWriter(path: folder.file("phdr.pcap"))
        withDirection.record(CaptureRecord(timestampMicros: Self.t0, direction: .sent, packet: HCIReset().packet))
        withDirection.record(CaptureRecord(timestampMicros: Self.t0 + 2, direction: .received,
                                           packet: H4Packet(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])))
        withDirection.close()
        // Link type 187: H4 without direction header, little-endian classic pcap.
        var plain = Self.words([0xA1B2_C3D4, 0x0004_0002, 0, 0, 65_535, 187])
        for (offset, packet) in [(1, HCIReset().packet.h4Bytes), (3, [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])] {
            let micros = Self.t0 + Int64(offset)
            plain += Self.words([UInt32(micros / 1_000_000), UInt32(micros % 1_000_000), UInt32(packet.count), UInt32(packet.count)])
            plain += packet
        }
        try Data(plain).write(to: URL(fileURLWithPath: folder.file("plain.pcap")))
        let merged = folder.file("merged.pcapng")
        let merging = try run(mergecap, ["-F", "pcapng", "-w", merged, folder.file("phdr.pcap"), folder.file("plain.pcap")])
        try #require(merging.status == 0, "mergecap: \(merging.stderr)")

        let inspected = try run(cli, ["inspect", merged])
        #expect(inspected.status == 0, "stderr: \(inspected.stderr)")
        let lines = inspected.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("pcapng, link types 201, 187") == true, "\(inspected.stdout)")
        #expect(inspected.stdout.contains("direction guessed"))
        #expect(lines.filter { $0.contains(" command ") }.count == 2, "\(inspected.stdout)")
        #expect(lines.last == "4 packet(s)")

        let json = try run(cli, ["inspect", "--json", merged])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["linkTypes"] as? [Int] == [201, 187])
        #expect(object?["directionGuessed"] as? Bool == true)
        let packets = object?["packets"] as? [[String: Any]] ?? []
        let ours = packets.map { ["\($0["number"] ?? "")", "\($0["controllerIndex"] ?? "")"] }
        let theirs = try tsharkFields(tshark, merged, ["frame.number", "frame.interface_id"])
        #expect(ours == theirs)

        let checked = try run(cli, ["check", merged])
        #expect(!checked.stdout.contains("truncated"), "\(checked.stdout)")
        #expect(checked.stdout.contains("4 packet(s)") && checked.stdout.contains("direction guessed"), "\(checked.stdout)")
    }

    @Test("a btmon file: notes and index records printed and numbered as Wireshark numbers frames",
          .requires(.cli, .tshark))
    func monitorNotes() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let tshark = try RequiredComponent.tshark.require()
        let folder = try WorkFolder("inspect-btmon")
        defer { folder.cleanUp() }
        var bytes = Array("btsnoop".utf8) + [0] + Self.words([1, 2001], bigEndian: true)
        let records: [(UInt16, UInt16, [UInt8])] = [
            (0, 0, [0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66] + Array("hci0\0\0\0\0".utf8)),  // New Index
            (0xFFFF, 12, Array("Bluetooth monitor ver 5.66\0".utf8)),                                 // System Note
            (0, 13, [6, 5] + Array("test\0say \"hi\"\\\u{01}\0".utf8)),                                  // User Logging
            (0, 2, [0x03, 0x0C, 0x00]),                                                                // Reset
            (0, 3, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),                                              // its completion
        ]
        for (number, (index, opcode, data)) in records.enumerated() {
            let stamp = UInt64(Self.t0 + Int64(number)) + UInt64(CaptureReader.btsnoopUnixEpochOffsetMicros)
            bytes += Self.words([UInt32(data.count), UInt32(data.count), UInt32(index) << 16 | UInt32(opcode), 0,
                                 UInt32(stamp >> 32), UInt32(truncatingIfNeeded: stamp)], bigEndian: true) + data
        }
        let path = folder.file("btmon.log")
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let text = try run(cli, ["inspect", path])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.contains("= [0] note    New Index type=Primary bus=0 address=66:55:44:33:22:11 name=hci0"), "\(text.stdout)")
        #expect(text.stdout.contains("note    System Note Bluetooth monitor ver 5.66"), "\(text.stdout)")

        let json = try run(cli, ["inspect", "--json", path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let packets = object?["packets"] as? [[String: Any]] ?? []
        #expect(packets.map { $0["type"] as? String } == ["note", "note", "note", "command", "event"])
        #expect((packets[2]["fields"] as? [String: String])?["detail"] == "priority=6 test: say \"hi\"\\.")
        #expect(packets.compactMap { $0["name"] as? String == "Reset" ? $0["number"] as? Int : nil } == [4])
        #expect(try frameNumbers(tshark, path, filter: "bthci_cmd") == ["4"])
    }

    @Test("the views: --conn, --layer, --from/--to, --grep and --summary pick what they say", .requires(.cli))
    func views() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let folder = try WorkFolder("inspect-views")
        defer { folder.cleanUp() }
        let path = folder.file("views.pcap")
        let writer = try PcapWriter(path: path)
        func connect(_ handle: UInt8) -> H4Packet {
            H4Packet(type: .event, payload: [0x3E, 0x13, 0x01, 0x00, handle, 0x00, 0x01, 0x00, 1, 2, 3, 4, 5, 6,
                                             24, 0, 0, 0, 72, 0, 0])
        }
        func notify(_ handle: UInt8, _ value: UInt8) -> H4Packet {
            H4Packet(type: .acl, payload: [handle, 0x00, 8, 0, 4, 0, 4, 0, 0x1B, 0x10, 0x00, value])
        }
        let packets: [(Int64, CaptureDirection, H4Packet)] = [
            (0, .received, connect(0x40)),
            (500_000, .received, connect(0x41)),
            (1_000_000, .sent, notify(0x40, 0xAA)),
            (1_500_000, .sent, notify(0x41, 0xBB)),
            (2_500_000, .sent, H4Packet(type: .acl, payload: [0x41, 0x00, 6, 0, 2, 0, 6, 0, 0x05, 0x08])),  // SMP Pairing Failed
            (3_000_000, .received, H4Packet(type: .event, payload: [0x05, 0x04, 0x00, 0x40, 0x00, 0x13])),
        ]
        for (offset, direction, packet) in packets {
            writer.record(CaptureRecord(timestampMicros: Self.t0 + offset, direction: direction, packet: packet))
        }
        writer.close()

        func shown(_ arguments: [String]) throws -> [Int] {
            let result = try run(cli, ["inspect", "--json"] + arguments + [path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (object?["packets"] as? [[String: Any]] ?? []).compactMap { $0["number"] as? Int }
        }
        #expect(try shown(["--conn", "0x40"]) == [1, 3, 6])
        #expect(try shown(["--conn", "65"]) == [2, 4, 5])
        #expect(try shown(["--layer", "att"]) == [3, 4])
        #expect(try shown(["--follow", "0x41"]) == [4])
        #expect(try shown(["--layer", "smp,hci"]) == [1, 2, 5, 6])
        #expect(try shown(["--from", "1", "--to", "2.5"]) == [3, 4, 5])
        #expect(try shown(["--grep", "USER TERMINATED"]) == [6])
        #expect(try run(cli, ["inspect", "--layer", "radio", path]).status != 0)

        let summary = try run(cli, ["inspect", "--summary", path])
        #expect(summary.status == 0, "stderr: \(summary.stderr)")
        #expect(summary.stdout.contains("2 connection(s)"), "\(summary.stdout)")
        #expect(summary.stdout.contains("connection 0x0040: peer 06:05:04:03:02:01 (we are peripheral), connected in frame 1"),
                "\(summary.stdout)")
        #expect(summary.stdout.contains("1 SMP pairing failed"), "\(summary.stdout)")
        #expect(summary.stdout.contains("disconnected in frame 6"), "\(summary.stdout)")
        let json = try run(cli, ["inspect", "--summary", "--json", path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let connections = object?["connections"] as? [[String: Any]] ?? []
        #expect(connections.map { $0["handle"] as? Int } == [0x40, 0x41])
        #expect(connections.first?["bytesSent"] as? Int == 8)
    }

    @Test("bench inspect times inspect, inspect --json and check against tshark -r and prints the ratios",
          .requires(.cli, .tshark))
    func benchInspect() throws {
        let cli = try RequiredComponent.require(.cli)[0]
        let result = try run(cli, ["bench", "inspect", "--packets", "3000", "--runs", "1", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let rows = object?["rows"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["name"] as? String } == ["inspect", "inspect --json", "check", "tshark -r"])
        #expect((object?["frames"] as? Int ?? 0) >= 3000)
        #expect(rows.allSatisfy { ($0["timesFasterThanTshark"] as? Double ?? 0) > 0 })
        #expect(rows.last?["timesFasterThanTshark"] as? Double == 1)
    }

    private static func words(_ values: [UInt32], bigEndian: Bool = false) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init) }
    }
}
