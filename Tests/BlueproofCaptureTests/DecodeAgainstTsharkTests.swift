import BlueproofCapture
import BlueproofTestSupport
import BlueproofWire
import Foundation
import Testing

/// What `inspect` decodes for the packets issue 16 found "Unknown" or undecoded, compared
/// field by field with Wireshark's dissectors where they decode the same field.
@Suite("Decoding against tshark")
struct DecodeAgainstTsharkTests {
    /// One packet, and pairs of (our field, tshark's field) that must hold the same number.
    struct Sample {
        var direction: CaptureDirection
        var type: H4PacketType
        var hex: String
        var pairs: [(String, String)]
    }

    static let samples: [Sample] = [
        Sample(direction: .sent, type: .command, hex: "162002 4000", pairs: [("handle", "bthci_cmd.connection_handle")]),
        Sample(direction: .received, type: .event, hex: "030b 00 0b00 7c9a1c21a0c8 01 00",
               pairs: [("handle", "bthci_evt.connection_handle")]),
        Sample(direction: .received, type: .event, hex: "0804 00 4000 01",
               pairs: [("handle", "bthci_evt.connection_handle"), ("encryption", "bthci_evt.encryption_enable")]),
        Sample(direction: .received, type: .event, hex: "0c08 00 4000 0c 0f00 1a02",
               pairs: [("handle", "bthci_evt.connection_handle"), ("version", "bthci_evt.lmp_vers_nr"),
                       ("company", "bthci_evt.comp_id"), ("subversion", "bthci_evt.lmp_sub_vers_nr")]),
        Sample(direction: .received, type: .event, hex: "3003 00 4100", pairs: [("handle", "bthci_evt.connection_handle")]),
        Sample(direction: .received, type: .event, hex: "0e0c 01 1820 00 efcdab8967452301",
               // tshark shows the random number as its octets in wire order.
               pairs: [("random", "bthci_evt.le_random_number#octets")]),
        Sample(direction: .received, type: .acl, hex: "4000 1000 0c00 0500 12 01 0800 0600 0c00 0000 f401",
               pairs: [("interval_min", "btl2cap.min_interval"), ("interval_max", "btl2cap.max_interval"),
                       ("latency", "btl2cap.slave_latency"), ("supervision_timeout", "btl2cap.timeout_multiplier")]),
        Sample(direction: .sent, type: .acl, hex: "4000 0b00 0700 0600 01 03 00 0d 10 07 07",
               pairs: [("io_capability", "btsmp.io_capability"), ("max_key_size", "btsmp.max_enc_key_size")]),
        Sample(direction: .sent, type: .acl, hex: "4000 0700 0300 0400 0a 0300", pairs: [("attribute", "btatt.handle")]),
    ]

    /// The tshark field name, without a `#octets` note.
    static func field(_ name: String) -> String { String(name.split(separator: "#")[0]) }

    /// A field's number, decimal or `0x` hexadecimal, ignoring any text after it.
    static func number(_ text: String) -> UInt64? {
        let head = text.split(separator: " ").first.map(String.init) ?? text
        return head.hasPrefix("0x") ? UInt64(head.dropFirst(2), radix: 16) : UInt64(head)
    }

    @Test(.requires(.tshark)) func sameValuesAsTshark() throws {
        let tshark = try RequiredComponent.tshark.require()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let records = Self.samples.enumerated().map { index, sample in
            CaptureRecord(timestampMicros: 1_718_000_000_000_000 + Int64(index) * 1000, direction: sample.direction,
                          packet: H4Packet(type: sample.type, payload: bytes(fromHex: sample.hex) ?? []))
        }
        let path = try writeCapture(records, to: folder.path("decoding.pcap"))
        // tshark prints a field asked twice once: ask each once.
        var tsharkNames: [String] = []
        for sample in Self.samples {
            for (_, name) in sample.pairs where !tsharkNames.contains(Self.field(name)) { tsharkNames.append(Self.field(name)) }
        }
        let rows = try tsharkFields(tshark, path, tsharkNames)
        try #require(rows.count == records.count)
        #expect(try malformedFrames(tshark, path) == [])
        var compared = 0
        for (index, sample) in Self.samples.enumerated() {
            let description = records[index].packet.describe()
            #expect(description.malformed == nil, "\(sample.hex)")
            for (ours, theirs) in sample.pairs {
                let column = try #require(tsharkNames.firstIndex(of: Self.field(theirs)))
                let value = description.fields.first { $0.name == ours }?.value ?? ""
                var reference = rows[index][column].split(separator: ",").first.map(String.init) ?? ""
                if theirs.hasSuffix("#octets") {
                    reference = "0x" + hex((bytes(fromHex: reference) ?? []).reversed())
                }
                #expect(Self.number(value) != nil && Self.number(value) == Self.number(reference),
                        "\(sample.hex): \(ours)=\(value), tshark \(theirs)=\(reference)")
                compared += 1
            }
        }
        #expect(compared == 17)
    }

    /// A capture the suite made (Tests/Fixtures/captures/README.md): every ATT PDU named as
    /// tshark names its opcode, every attribute handle we show equal to tshark's, the
    /// characteristic the discovery found named on the later Read and Write.
    @Test(.requires(.tshark)) func suiteCaptureAgainstTshark() throws {
        let tshark = try RequiredComponent.tshark.require()
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures/suite-gatt-discovery.pcap").path
        let records = try CaptureReader.read(path: path).records
        var decoder = TraceDecoder()
        let descriptions = records.map { decoder.describe($0.packet, sent: $0.direction == .sent) }
        #expect(descriptions.allSatisfy { $0.malformed == nil && !$0.name.hasPrefix("Unknown") })
        let rows = try tsharkFields(tshark, path, ["frame.number", "btatt.opcode", "btatt.handle"], filter: "btatt")
        try #require(rows.count == 14)
        for row in rows {
            let description = try #require(Int(row[0]).map { descriptions[$0 - 1] })
            let fields = Dictionary(description.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let opcode = try #require(Self.number(row[1]))
            #expect(fields["pdu"] == ATTOpcode(rawValue: UInt8(opcode)).name, "frame \(row[0])")
            if let attribute = fields["attribute"] {
                #expect(Self.number(attribute) == Self.number(row[2]), "frame \(row[0])")
            }
        }
        let read = try #require(descriptions.first { $0.fields.contains(.init("pdu", "Read Request")) })
        #expect(read.fields.contains { $0.name == "attribute_type" && $0.value.count == 36 }, "\(read.line)")
    }
}
