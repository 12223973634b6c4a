import BlueproofCapture
import BlueproofTestSupport
import BlueproofWire
import Foundation
import Testing

/// Real captures from public repositories (Tests/Fixtures/captures/public/README.md: Android
/// btsnoop logs of LE links, GATT discovery and traffic, L2CAP signalling, controller start-up,
/// a BR/EDR headset link),
/// decoded frame by frame and compared with tshark's dissectors (issue 16).
@Suite("Public captures against tshark")
struct PublicCaptureTests {
    static let files = ["pongbot-mcp.btsnoop", "esphome-lumentree.btsnoop", "btsnoop-extcap.btsnoop", "btagent.btsnoop"]

    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures/public/\(name)").path
    }

    /// tshark's fields, per frame: what each column holds.
    static let columns = ["frame.number", "_ws.col.Info", "bthci_evt.opcode", "bthci_acl.chandle", "btatt.opcode",
                          "btatt.handle", "_ws.malformed"]

    @Test(.requires(.tshark), arguments: files)
    func sameAsTshark(file: String) throws {
        let tshark = try RequiredComponent.tshark.require()
        let path = Self.path(file)
        let records = try CaptureReader.read(path: path).records
        var decoder = TraceDecoder()
        let ours = records.map { decoder.describe($0.packet, sent: $0.direction == .sent) }
        let rows = try tsharkFields(tshark, path, Self.columns, options: ["-E", "occurrence=f"])
        try #require(rows.count == records.count, "\(file): tshark read \(rows.count) frames, we read \(records.count)")
        var compared = (named: 0, opcodes: 0, handles: 0, att: 0)
        for (index, row) in rows.enumerated() {
            let frame = "\(file) frame \(row[0])"
            let description = ours[index]
            let fields = Dictionary(description.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let packet = records[index].packet
            // Malformed only where Wireshark finds it malformed too.
            if row[6].isEmpty { #expect(description.malformed == nil, "\(frame): \(description.line)") }
            switch packet.type {
            case .command, .event:
                // A standard command or event is named; "Unknown" only where tshark knows it no better.
                if !Self.isVendor(packet), description.name.hasPrefix("Unknown") || fields["command"] == "Unknown" {
                    #expect(row[1].contains("Unknown"), "\(frame): we print \(description.line), tshark \(row[1])")
                }
                compared.named += 1
                if let opcode = fields["opcode"], let theirs = DecodeAgainstTsharkTests.number(row[2]) {
                    #expect(Self.opcode(opcode) == theirs, "\(frame): opcode \(opcode), tshark \(row[2])")
                    compared.opcodes += 1
                }
            case .acl:
                if let theirs = DecodeAgainstTsharkTests.number(row[3]) {
                    #expect(fields["handle"].flatMap(DecodeAgainstTsharkTests.number) == theirs, "\(frame): handle \(fields["handle"] ?? "none"), tshark \(theirs)")
                    compared.handles += 1
                }
                if let opcode = DecodeAgainstTsharkTests.number(row[4]) {
                    #expect(fields["pdu"] == ATTOpcode(rawValue: UInt8(truncatingIfNeeded: opcode)).name, "\(frame): pdu \(fields["pdu"] ?? "none"), tshark opcode \(row[4])")
                    if let attribute = fields["attribute"], !row[5].isEmpty {
                        #expect(DecodeAgainstTsharkTests.number(attribute) == DecodeAgainstTsharkTests.number(row[5]), "\(frame): attribute \(attribute), tshark \(row[5])")
                    }
                    compared.att += 1
                }
            default:
                break
            }
        }
        // Each file holds what it was chosen for (README): the comparisons above ran on it.
        let expected = Self.expected[file] ?? (0, 0, 0, 0)
        #expect(compared.named >= expected.named && compared.opcodes >= expected.opcodes
                && compared.handles >= expected.handles && compared.att >= expected.att, "\(file): compared \(compared)")
    }

    /// Lower bounds of what each file gives to compare: commands and events named, Command
    /// Complete opcodes, ACL handles, ATT PDUs.
    static let expected: [String: (named: Int, opcodes: Int, handles: Int, att: Int)] = [
        "pongbot-mcp.btsnoop": (1_000, 300, 350, 350),
        "esphome-lumentree.btsnoop": (0, 0, 1_300, 1_300),
        "btsnoop-extcap.btsnoop": (200, 70, 0, 0),
        "btagent.btsnoop": (280, 60, 240, 0),
    ]

    /// A vendor command (OGF 0x3f) or vendor event (0xff): named by no standard.
    static func isVendor(_ packet: H4Packet) -> Bool {
        switch packet.type {
        case .command: packet.payload.count >= 2 && packet.payload[1] >> 2 == 0x3F
        case .event: packet.payload.first == 0xFF
        default: false
        }
    }

    /// Our "0xOGF|0xOCF" as the 16-bit opcode tshark shows.
    static func opcode(_ text: String) -> UInt64? {
        let parts = text.split(separator: "|").map { DecodeAgainstTsharkTests.number(String($0)) }
        guard parts.count == 2, let group = parts[0], let command = parts[1] else { return nil }
        return group << 10 | command
    }
}
