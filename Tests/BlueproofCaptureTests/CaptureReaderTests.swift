import BlueproofCapture
import BlueproofWire
import Foundation
import Testing

@Suite("CaptureReader")
struct CaptureReaderTests {
    static let t0: Int64 = 1_700_000_000_654_321

    // MARK: btsnoop

    @Test("btsnoop epoch offset: BlueZ's 2000-01-01 mark minus 946684800 s")
    func epochConstant() {
        #expect(CaptureReader.btsnoopUnixEpochOffsetMicros == 0x00E0_3AB4_4A67_6000 - 946_684_800 * 1_000_000)
        #expect(CaptureReader.btsnoopUnixEpochOffsetMicros == 0x00DC_DDB3_0F2F_8000)
    }

    @Test("btsnoop 1002 (H4): indicator in the data, direction in flag bit 0")
    func btsnoopUART() throws {
        var builder = BtsnoopBuilder(datalink: 1002)
        builder.add(flags: 0, unixMicros: Self.t0, data: SamplePackets.reset.h4Bytes)
        builder.add(flags: 1, unixMicros: Self.t0 + 10, data: SamplePackets.resetComplete.h4Bytes)
        builder.add(flags: 0, unixMicros: Self.t0 + 20, data: SamplePackets.attMTURequest.h4Bytes)
        builder.add(flags: 1, unixMicros: Self.t0 + 30, data: SamplePackets.largeACL().h4Bytes)
        builder.add(flags: 1, unixMicros: Self.t0 + 40, data: [])  // empty: skipped
        let file = try readCapture(builder.bytes)
        #expect(file.format == .btsnoop)
        #expect(file.linkType == 1002)
        #expect(file.skipped == 1)
        #expect(file.truncated == nil)
        #expect(file.records == [
            CaptureRecord(timestampMicros: Self.t0, direction: .sent, packet: SamplePackets.reset),
            CaptureRecord(timestampMicros: Self.t0 + 10, direction: .received, packet: SamplePackets.resetComplete),
            CaptureRecord(timestampMicros: Self.t0 + 20, direction: .sent, packet: SamplePackets.attMTURequest),
            CaptureRecord(timestampMicros: Self.t0 + 30, direction: .received, packet: SamplePackets.largeACL()),
        ])
    }

    @Test("btsnoop 1001 (HCI): bit 1 tells command/event from data, bit 0 the direction")
    func btsnoopHCI() throws {
        var builder = BtsnoopBuilder(datalink: 1001)
        builder.add(flags: 2, unixMicros: Self.t0, data: SamplePackets.reset.payload)
        builder.add(flags: 3, unixMicros: Self.t0 + 1, data: SamplePackets.resetComplete.payload)
        builder.add(flags: 0, unixMicros: Self.t0 + 2, data: SamplePackets.attMTURequest.payload)
        builder.add(flags: 1, unixMicros: Self.t0 + 3, data: SamplePackets.attMTURequest.payload)
        let file = try readCapture(builder.bytes)
        #expect(file.linkType == 1001)
        #expect(file.records.map(\.packet) == [SamplePackets.reset, SamplePackets.resetComplete,
                                               SamplePackets.attMTURequest, SamplePackets.attMTURequest])
        #expect(file.records.map(\.direction) == [.sent, .received, .sent, .received])
        #expect(file.records.map(\.timestampMicros) == [Self.t0, Self.t0 + 1, Self.t0 + 2, Self.t0 + 3])
        #expect(file.records.allSatisfy { $0.controllerIndex == nil })
    }

    @Test("btsnoop 2001 (btmon): controller index and opcode in the flags; non-packets skipped and counted")
    func btsnoopMonitor() throws {
        var builder = BtsnoopBuilder(datalink: 2001)
        let newIndex: [UInt8] = [0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66] + Array("hci0\0\0\0\0".utf8)
        builder.addMonitor(index: 0, opcode: 0, unixMicros: Self.t0, data: newIndex)         // new index
        builder.addMonitor(index: 0, opcode: 8, unixMicros: Self.t0 + 1, data: [])           // open index
        builder.addMonitor(index: 0, opcode: 2, unixMicros: Self.t0 + 2, data: SamplePackets.reset.payload)
        builder.addMonitor(index: 0, opcode: 3, unixMicros: Self.t0 + 3, data: SamplePackets.resetComplete.payload)
        builder.addMonitor(index: 0xFFFF, opcode: 12, unixMicros: Self.t0 + 4, data: Array("note\0".utf8))  // system note
        builder.addMonitor(index: 1, opcode: 4, unixMicros: Self.t0 + 5, data: SamplePackets.attMTURequest.payload)
        builder.addMonitor(index: 1, opcode: 5, unixMicros: Self.t0 + 6, data: SamplePackets.largeACL().payload)
        builder.addMonitor(index: 2, opcode: 6, unixMicros: Self.t0 + 7, data: [0x01, 0x00, 0x02, 0xAA, 0xBB])
        builder.addMonitor(index: 2, opcode: 19, unixMicros: Self.t0 + 8, data: [0x01, 0x20, 0x02, 0x00, 0xAA, 0xBB])
        builder.addMonitor(index: 0, opcode: 9, unixMicros: Self.t0 + 9, data: [])           // close index
        let file = try readCapture(builder.bytes)
        #expect(file.linkType == 2001)
        #expect(file.skipped == 4)
        #expect(file.truncated == nil)
        #expect(file.records.map(\.packet.type) == [.command, .event, .acl, .acl, .sco, .iso])
        #expect(file.records.map(\.direction) == [.sent, .received, .sent, .received, .sent, .received])
        #expect(file.records.map(\.controllerIndex) == [0, 0, 1, 1, 2, 2])
        #expect(file.records.map(\.timestampMicros) == [2, 3, 5, 6, 7, 8].map { Self.t0 + $0 })
        #expect(file.records[0].packet == SamplePackets.reset)
        #expect(file.records[3].packet == SamplePackets.largeACL())
    }

    @Test("a cut btsnoop keeps the records before the cut and reports where", arguments: [1, 3, 10, 24, 25, 30])
    func truncatedBtsnoop(cut: Int) throws {
        var builder = BtsnoopBuilder(datalink: 1002)
        builder.add(flags: 0, unixMicros: Self.t0, data: SamplePackets.reset.h4Bytes)
        builder.add(flags: 1, unixMicros: Self.t0 + 1, data: SamplePackets.resetComplete.h4Bytes)
        builder.add(flags: 1, unixMicros: Self.t0 + 2, data: SamplePackets.advertisingReport.h4Bytes)
        // The last record is 24 + 24 bytes long: cuts up to 24 land in its data, 25+ in its header.
        let bytes = Array(builder.bytes.dropLast(cut))
        let file = try readCapture(bytes)
        #expect(file.records.map(\.packet) == [SamplePackets.reset, SamplePackets.resetComplete])
        guard case let .truncated(_, record, byteOffset, reason) = file.truncated else {
            Issue.record("expected a truncation, got \(String(describing: file.truncated))")
            return
        }
        #expect(record == 3)
        #expect(byteOffset == builder.recordOffsets[2])
        #expect(!reason.isEmpty)
        #expect("\(file.truncated!)".contains("record 3"))
    }

    @Test("a btsnoop holding only its header is an empty capture")
    func headerOnlyBtsnoop() throws {
        let file = try readCapture(BtsnoopBuilder(datalink: 2001).bytes)
        #expect(file.records.isEmpty && file.skipped == 0 && file.truncated == nil)
    }

    @Test("btsnoop with another version or datalink is refused as unsupported")
    func unsupportedBtsnoop() throws {
        for bytes in [BtsnoopBuilder(datalink: 1002, version: 2).bytes, BtsnoopBuilder(datalink: 1003).bytes] {
            #expect {
                _ = try readCapture(bytes)
            } throws: { error in
                if case .unsupported = error as? CaptureError { return true }
                return false
            }
        }
    }

    // MARK: pcap link types written elsewhere

    @Test("pcap 187 (H4 without direction): commands sent, events and data received, flagged as inferred")
    func pcapH4() throws {
        var builder = PcapBuilder(linkType: 187)
        builder.add(unixMicros: Self.t0, data: SamplePackets.reset.h4Bytes)
        builder.add(unixMicros: Self.t0 + 1, data: SamplePackets.resetComplete.h4Bytes)
        builder.add(unixMicros: Self.t0 + 2, data: SamplePackets.attMTURequest.h4Bytes)
        let file = try readCapture(builder.bytes)
        #expect(file.linkType == 187)
        #expect(file.directionSource == .inferredFromPacketType)
        #expect(file.records == [
            CaptureRecord(timestampMicros: Self.t0, direction: .sent, packet: SamplePackets.reset),
            CaptureRecord(timestampMicros: Self.t0 + 1, direction: .received, packet: SamplePackets.resetComplete),
            CaptureRecord(timestampMicros: Self.t0 + 2, direction: .received, packet: SamplePackets.attMTURequest),
        ])
    }

    @Test("pcap 254 (Linux monitor): big-endian adapter and opcode, like btsnoop 2001")
    func pcapLinuxMonitor() throws {
        var builder = PcapBuilder(linkType: 254)
        builder.add(unixMicros: Self.t0, data: [0x00, 0x00, 0x00, 0x00] + Array(repeating: 0, count: 16))  // new index
        builder.add(unixMicros: Self.t0 + 1, data: [0x00, 0x01, 0x00, 0x02] + SamplePackets.reset.payload)
        builder.add(unixMicros: Self.t0 + 2, data: [0x00, 0x01, 0x00, 0x03] + SamplePackets.resetComplete.payload)
        builder.add(unixMicros: Self.t0 + 3, data: [0x01, 0x02, 0x00, 0x04] + SamplePackets.attMTURequest.payload)
        let file = try readCapture(builder.bytes)
        #expect(file.linkType == 254)
        #expect(file.skipped == 1)
        #expect(file.records == [
            CaptureRecord(timestampMicros: Self.t0 + 1, direction: .sent, packet: SamplePackets.reset, controllerIndex: 1),
            CaptureRecord(timestampMicros: Self.t0 + 2, direction: .received, packet: SamplePackets.resetComplete, controllerIndex: 1),
            CaptureRecord(timestampMicros: Self.t0 + 3, direction: .sent, packet: SamplePackets.attMTURequest, controllerIndex: 0x0102),
        ])
    }

    @Test("a pcap of another link type (Ethernet) is refused as unsupported")
    func pcapEthernet() throws {
        var builder = PcapBuilder(linkType: 1)
        builder.add(unixMicros: Self.t0, data: Array(repeating: 0xFF, count: 60))
        #expect {
            _ = try readCapture(builder.bytes)
        } throws: { error in
            guard case let .unsupported(_, reason) = error as? CaptureError else { return false }
            return reason.contains("link type 1 ")
        }
    }

    // MARK: not captures

    @Test("empty, garbage, cut-header and missing files throw a CaptureError naming the file")
    func notCaptures() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let cases: [(name: String, bytes: [UInt8]?, check: @Sendable (CaptureError) -> Bool)] = [
            ("empty", [], { if case .empty = $0 { true } else { false } }),
            ("text", Array("hello, this is not a capture\n".utf8), { if case .notACapture = $0 { true } else { false } }),
            ("short", [0xA1], { if case .notACapture = $0 { true } else { false } }),
            ("pcap-header-cut", Array(PcapBuilder(linkType: 201).bytes.prefix(10)),
             { if case .truncated(_, 0, _, _) = $0 { true } else { false } }),
            ("btsnoop-header-cut", Array(BtsnoopBuilder(datalink: 1002).bytes.prefix(12)),
             { if case .truncated(_, 0, _, _) = $0 { true } else { false } }),
            ("missing", nil, { if case .cannotOpen = $0 { true } else { false } }),
        ]
        for entry in cases {
            let path2 = try entry.bytes.map { try folder.write($0, to: entry.name) } ?? folder.path(entry.name)
            #expect(Comment(rawValue: entry.name)) {
                _ = try CaptureReader.read(path: path2)
            } throws: { error in
                guard let error = error as? CaptureError else { return false }
                return entry.check(error) && error.path == path2 && error.description.contains(path2)
            }
        }
    }
}
