@testable import BlueproofCapture
import BlueproofTestSupport
import Foundation
import Testing

/// pcapng parsed here: several interfaces of several link types, time resolutions, blocks
/// that hold no frame, and files built to break it.
@Suite("CaptureReader: pcapng")
struct PcapngTests {
    static let t0: Int64 = 1_718_000_000_000_000

    /// Interface 0: link type 201 (direction recorded); interface 1: link type 187 (guessed);
    /// a name resolution and a statistics block between the frames.
    static func twoInterfaces() -> PcapngBuilder {
        var builder = PcapngBuilder(linkType: 201)
        builder.addInterface(linkType: 187)
        let stamp = { (micros: Int64) in (UInt32(micros >> 32), UInt32(truncatingIfNeeded: micros)) }
        let (high, low) = stamp(t0)
        builder.add(interface: 0, timestampHigh: high, timestampLow: low, data: [0, 0, 0, 0] + SamplePackets.reset.h4Bytes)
        builder.addOther(type: 4, body: [0, 0, 0, 0])  // name resolution: no frame
        builder.add(interface: 1, timestampHigh: high, timestampLow: low + 1, data: SamplePackets.resetComplete.h4Bytes)
        builder.addOther(type: 5, body: [1, 0, 0, 0] + [UInt8](repeating: 0, count: 8))  // interface statistics
        builder.add(interface: 0, timestampHigh: high, timestampLow: low + 2, data: [0, 0, 0, 1] + SamplePackets.attMTURequest.h4Bytes)
        builder.add(interface: 1, timestampHigh: high, timestampLow: low + 3, data: SamplePackets.attMTURequest.h4Bytes)
        return builder
    }

    @Test("two interfaces (201 and 187): every frame read, interface as controller index, 187's directions guessed")
    func twoInterfaceTypes() throws {
        let file = try readCapture(Self.twoInterfaces().bytes)
        #expect(file.format == .pcapng)
        #expect(file.truncated == nil)
        #expect(file.linkType == 201)
        #expect(file.directionSource == .inferredFromPacketType)
        #expect(file.records == [
            CaptureRecord(timestampMicros: Self.t0, direction: .sent, packet: SamplePackets.reset, controllerIndex: 0),
            CaptureRecord(timestampMicros: Self.t0 + 1, direction: .received, packet: SamplePackets.resetComplete, controllerIndex: 1),
            CaptureRecord(timestampMicros: Self.t0 + 2, direction: .received, packet: SamplePackets.attMTURequest, controllerIndex: 0),
            CaptureRecord(timestampMicros: Self.t0 + 3, direction: .received, packet: SamplePackets.attMTURequest, controllerIndex: 1),
        ])
        let stream = try openCapture(Self.twoInterfaces().bytes)
        #expect(stream.linkTypes == [201, 187])
    }

    @Test("tshark numbers the same frames on the same interfaces, none malformed", .requires(.tshark))
    func twoInterfacesInTshark() throws {
        let tshark = try RequiredComponent.tshark.require()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write(Self.twoInterfaces().bytes, to: "two.pcapng")
        let frames = try tsharkFields(tshark, path, ["frame.number", "frame.interface_id", "hci_h4.type"])
        let stream = try CaptureReader.open(path: path)
        var ours: [[String]] = []
        while let entry = stream.nextEntry() {
            guard case let .packet(record) = entry else { continue }
            ours.append(["\(stream.frameNumber)", "\(record.controllerIndex ?? 0)",
                         String(format: "0x%02x", record.packet.type.rawValue)])
        }
        #expect(ours == frames)
        #expect(try malformedFrames(tshark, path) == [])
    }

    @Test("if_tsresol: nanoseconds and 2^-10 s units read as microseconds")
    func timeResolutions() throws {
        var builder = PcapngBuilder(linkType: 201)
        builder.addInterface(linkType: 201, resolution: 9)        // 10^-9 s
        builder.addInterface(linkType: 201, resolution: 0x80 | 10)  // 2^-10 s
        let nanos = UInt64(Self.t0) * 1000 + 999
        builder.add(interface: 1, timestampHigh: UInt32(nanos >> 32), timestampLow: UInt32(truncatingIfNeeded: nanos),
                    data: [0, 0, 0, 0] + SamplePackets.reset.h4Bytes)
        builder.add(interface: 2, timestampHigh: 0, timestampLow: 3 * 1024 + 512, data: [0, 0, 0, 1] + SamplePackets.resetComplete.h4Bytes)
        builder.addSimple(data: [0, 0, 0, 1] + SamplePackets.resetComplete.h4Bytes)
        let file = try readCapture(builder.bytes)
        #expect(file.truncated == nil)
        #expect(file.records.map(\.timestampMicros) == [Self.t0, 3_500_000, 0])
        #expect(file.records.map(\.controllerIndex) == [1, 2, 0])
    }

    @Test("a big-endian section reads like a little-endian one")
    func bigEndianSection() throws {
        // Section header, interface (201), one Enhanced Packet Block, all big-endian.
        func words(_ values: [UInt32]) -> [UInt8] { values.flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) } }
        let packet = [0, 0, 0, 0] + SamplePackets.reset.h4Bytes  // 8 bytes, no padding
        var bytes = words([0x0A0D_0D0A, 28, 0x1A2B_3C4D, 0x0001_0000, 0xFFFF_FFFF, 0xFFFF_FFFF, 28])
        bytes += words([1, 20, 201 << 16, 65_535, 20])
        bytes += words([6, 32 + 8, 0, 0, 1_000_000, 8, 8]) + packet + words([32 + 8])
        let file = try readCapture(bytes)
        #expect(file.truncated == nil)
        #expect(file.records.map(\.packet) == [SamplePackets.reset])
        #expect(file.records.map(\.timestampMicros) == [1_000_000])
    }

    @Test("hostile blocks end the stream with a typed error naming the limit or the fault, records before kept")
    func hostileBlocks() throws {
        var valid = PcapngBuilder(linkType: 201)
        valid.add(timestampHigh: 0, timestampLow: 1, data: [0, 0, 0, 0] + SamplePackets.reset.h4Bytes)

        var huge = valid
        huge.bytes += [6, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0x7F]
        let hugeFile = try readCapture(huge.bytes)
        #expect(hugeFile.records.count == 1)
        guard case let .recordTooLong(_, record, _, length, limit) = hugeFile.truncated else {
            Issue.record("expected recordTooLong, got \(String(describing: hugeFile.truncated))")
            return
        }
        #expect((record, length, limit) == (2, 0x7FFF_FFF0, PcapngSource.maximumBlockLength))

        var noInterface = valid
        noInterface.add(interface: 7, timestampHigh: 0, timestampLow: 2, data: [0, 0, 0, 0] + SamplePackets.reset.h4Bytes)
        let noInterfaceFile = try readCapture(noInterface.bytes)
        #expect(noInterfaceFile.records.count == 1)
        #expect(noInterfaceFile.truncated?.description.contains("interface 7") == true)

        var lying = valid
        lying.bytes += [6, 0, 0, 0, 32, 0, 0, 0] + [UInt8](repeating: 0, count: 20) + [36, 0, 0, 0]
        #expect(try readCapture(lying.bytes).truncated?.description.contains("trailing length") == true)

        let cut = Array(valid.bytes.dropLast(3))
        let cutFile = try readCapture(cut)
        #expect(cutFile.records.isEmpty)
        guard case .truncated(_, 1, _, _)? = cutFile.truncated else {
            Issue.record("expected a cut in record 1, got \(String(describing: cutFile.truncated))")
            return
        }
    }

    @Test("a pcapng whose only interface is Ethernet is refused as unsupported")
    func ethernetOnly() throws {
        var builder = PcapngBuilder(linkType: 1)
        builder.add(timestampHigh: 0, timestampLow: 1, data: [UInt8](repeating: 0xFF, count: 60))
        #expect(throws: CaptureError.self) { _ = try readCapture(builder.bytes) }
    }

    @Test("btmon's notes and index records are entries with their text, numbered as frames", .requires(.tshark))
    func monitorNotesAreFrames() throws {
        var builder = BtsnoopBuilder(datalink: 2001)
        let newIndex: [UInt8] = [0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66] + Array("hci0\0\0\0\0".utf8)
        builder.addMonitor(index: 0, opcode: 0, unixMicros: Self.t0, data: newIndex)
        builder.addMonitor(index: 0, opcode: 8, unixMicros: Self.t0 + 1, data: [])
        builder.addMonitor(index: 0xFFFF, opcode: 12, unixMicros: Self.t0 + 2, data: Array("Bluetooth monitor ver 5.66\0".utf8))
        builder.addMonitor(index: 0, opcode: 2, unixMicros: Self.t0 + 3, data: SamplePackets.reset.payload)
        builder.addMonitor(index: 0, opcode: 13, unixMicros: Self.t0 + 4, data: [6, 5] + Array("test\0hello\0".utf8))
        builder.addMonitor(index: 0, opcode: 3, unixMicros: Self.t0 + 5, data: SamplePackets.resetComplete.payload)
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write(builder.bytes, to: "monitor.btsnoop")
        let stream = try CaptureReader.open(path: path)
        var entries: [(Int, CaptureEntry)] = []
        while let entry = stream.nextEntry() { entries.append((stream.frameNumber, entry)) }
        #expect(entries.map(\.0) == [1, 2, 3, 4, 5, 6])
        let notes = entries.compactMap { entry -> CaptureNote? in
            guard case let .note(note) = entry.1 else { return nil }
            return note
        }
        #expect(notes.map(\.name) == ["New Index", "Open Index", "System Note", "User Logging"])
        #expect(notes[0].detail == "type=Primary bus=0 address=66:55:44:33:22:11 name=hci0")
        #expect(notes[2].detail == "Bluetooth monitor ver 5.66")
        #expect(notes[2].controllerIndex == nil)
        #expect(notes[3].detail == "priority=6 test: hello")
        #expect((stream.packetCount, stream.skipped, stream.frameNumber) == (2, 4, 6))

        // Wireshark numbers the command frame 4 and the event frame 6, as we do.
        let tshark = try RequiredComponent.tshark.require()
        #expect(try frameNumbers(tshark, path, filter: "bthci_cmd") == ["4"])
        #expect(try frameNumbers(tshark, path, filter: "bthci_evt") == ["6"])
    }

    @Test("btmon records cut short or unknown still become notes, never a trap")
    func shortMonitorRecords() {
        let newIndex = CaptureNote.monitor(opcode: 0, index: 0, data: [1, 2][...], timestampMicros: 0)
        #expect(newIndex?.detail == "(2 bytes, expected 16)")
        let logging = CaptureNote.monitor(opcode: 13, index: 0, data: [6, 200, 0x41][...], timestampMicros: 0)
        #expect(logging?.name == "User Logging")
        let unknown = CaptureNote.monitor(opcode: 99, index: 0xFFFF, data: [][...], timestampMicros: 0)
        #expect(unknown?.name == "Monitor Opcode 99" && unknown?.controllerIndex == nil)
        #expect(CaptureNote.monitor(opcode: 2, index: 0, data: [0x03, 0x0C, 0x00][...], timestampMicros: 0) == nil)
        let long = CaptureNote.text(ArraySlice([UInt8](repeating: 0x41, count: 600)))
        #expect(long.hasSuffix("… (600 bytes)"))
    }
}
