import BlueproofWire
import Foundation

/// Reads captures recorded by blueproof or elsewhere: pcap and pcapng (through libpcap) with
/// link types 201, 187 and 254, and btsnoop (parsed here) with datalinks 1001, 1002 and 2001.
public enum CaptureReader {
    /// Microseconds from btsnoop's epoch ("midnight, January 1st, 0 AD" as btsnoop counts it)
    /// to the Unix epoch. BlueZ writes `unix µs - 946684800 s + 0x00E03AB44A676000`, i.e. the
    /// 2000-01-01 mark is 0x00E03AB44A676000; Wireshark subtracts the same 0x00DCDDB30F2F8000.
    public static let btsnoopUnixEpochOffsetMicros: Int64 = 0x00DC_DDB3_0F2F_8000

    /// Reads the whole file at `path`, finding its format from its first bytes.
    ///
    /// A file cut inside a record keeps every record before the cut and reports the cut in
    /// ``CaptureFile/truncated``. Throws when the file cannot be read, is empty, is not a
    /// capture, uses a link type we do not decode, or is cut inside its file header.
    public static func read(path: String) throws(CaptureError) -> CaptureFile {
        let magic = try readPrefix(path: path, count: 8)
        if magic.isEmpty { throw .empty(path: path) }
        guard let format = detect(magic) else {
            throw .notACapture(
                path: path,
                reason: "first bytes \(magic.map { hex($0) }.joined(separator: " ")) match neither pcap, pcapng nor btsnoop")
        }
        return format == .btsnoop ? try readBtsnoop(path: path) : try readPcap(path: path, format: format)
    }

    // MARK: - Format detection

    static let btsnoopMagic: [UInt8] = Array("btsnoop".utf8) + [0]

    static func detect(_ prefix: [UInt8]) -> CaptureFormat? {
        if prefix.count >= 8, Array(prefix.prefix(8)) == btsnoopMagic { return .btsnoop }
        guard prefix.count >= 4 else { return nil }
        let word = UInt32(prefix[0]) << 24 | UInt32(prefix[1]) << 16 | UInt32(prefix[2]) << 8 | UInt32(prefix[3])
        switch word {
        case 0xA1B2_C3D4, 0xD4C3_B2A1,  // microsecond pcap, either byte order
             0xA1B2_3C4D, 0x4D3C_B2A1,  // nanosecond pcap
             0xA1B2_CD34, 0x34CD_B2A1:  // "modified" pcap (Kuznetzov)
            return .pcap
        case 0x0A0D_0D0A:               // pcapng Section Header Block
            return .pcapng
        default:
            return nil
        }
    }

    private static func readPrefix(path: String, count: Int) throws(CaptureError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: fileProblem(path))
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        } catch {
            throw .cannotOpen(path: path, reason: error.localizedDescription)
        }
    }

    private static func fileProblem(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "is a folder" }
        return "not readable"
    }

    // MARK: - pcap / pcapng

    private static func readPcap(path: String, format: CaptureFormat) throws(CaptureError) -> CaptureFile {
        let contents: LibpcapContents
        do {
            contents = try LibpcapReader.readAll(path: path)
        } catch {
            if error.message.contains("truncated") {
                throw .truncated(path: path, record: 0, byteOffset: 0, reason: error.message)
            }
            throw .cannotOpen(path: path, reason: error.message)
        }

        let linkType = UInt32(bitPattern: contents.linkType)
        guard pcapLinkTypes.contains(linkType) else {
            throw .unsupported(path: path, reason: "pcap link type \(linkType) is not a Bluetooth HCI link type "
                + "we decode (201 H4 with direction, 187 H4, 254 Linux monitor)")
        }
        var file = CaptureFile(path: path, format: format, linkType: linkType)
        if linkType == CaptureLinkType.pcapH4 { file.directionSource = .inferredFromPacketType }
        for frame in contents.frames {
            file.add(decodeRecord(linkType: linkType, data: frame.bytes[...], flags: 0,
                                  timestampMicros: frame.timestampMicros))
        }

        if let message = contents.stopMessage {
            let record = contents.frames.count + 1
            // Classic pcap: 24-byte file header, then 16-byte record headers. pcapng blocks vary.
            let offset: Int? = format == .pcap
                ? contents.frames.reduce(24) { $0 + 16 + $1.bytes.count } : nil
            file.truncated = message.contains("truncated")
                ? .truncated(path: path, record: record, byteOffset: offset, reason: message)
                : .malformed(path: path, record: record, byteOffset: offset, reason: message)
        }
        return file
    }

    // MARK: - btsnoop

    /// btsnoop: 16-byte header ("btsnoop\0", version 1, datalink, big-endian), then records of
    /// a 24-byte header (original length, included length, flags, cumulative drops, 64-bit
    /// timestamp in µs since btsnoop's epoch; all big-endian) followed by the included bytes.
    private static func readBtsnoop(path: String) throws(CaptureError) -> CaptureFile {
        let bytes: ArraySlice<UInt8>
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))[...]
        } catch {
            throw .cannotOpen(path: path, reason: error.localizedDescription)
        }
        guard bytes.count >= 16 else {
            throw .truncated(path: path, record: 0, byteOffset: 0,
                             reason: "btsnoop header needs 16 bytes, the file has \(bytes.count)")
        }
        let version = bigEndian32(bytes, at: 8)
        guard version == 1 else {
            throw .unsupported(path: path, reason: "btsnoop version \(version), only version 1 exists")
        }
        let datalink = bigEndian32(bytes, at: 12)
        guard btsnoopDatalinks.contains(datalink) else {
            throw .unsupported(path: path, reason: "btsnoop datalink \(datalink) (we decode 1001 HCI, 1002 H4, 2001 BlueZ monitor)")
        }

        var file = CaptureFile(path: path, format: .btsnoop, linkType: datalink)
        var offset = 16
        var number = 0
        while offset < bytes.count {
            number += 1
            guard bytes.count - offset >= 24 else {
                file.truncated = .truncated(path: path, record: number, byteOffset: offset,
                    reason: "record header needs 24 bytes, \(bytes.count - offset) left")
                break
            }
            let included = Int(bigEndian32(bytes, at: offset + 4))
            let flags = bigEndian32(bytes, at: offset + 8)
            let stamp = Int64(bitPattern: UInt64(bigEndian32(bytes, at: offset + 16)) << 32
                                          | UInt64(bigEndian32(bytes, at: offset + 20)))
            let dataStart = offset + 24
            guard bytes.count - dataStart >= included else {
                file.truncated = .truncated(path: path, record: number, byteOffset: offset,
                    reason: "record holds \(included) bytes, \(bytes.count - dataStart) left")
                break
            }
            offset = dataStart + included
            file.add(decodeRecord(linkType: datalink, data: bytes[dataStart..<offset], flags: flags,
                                  timestampMicros: stamp &- btsnoopUnixEpochOffsetMicros))
        }
        return file
    }

    // MARK: - Records, whatever the container

    /// The pcap link types and btsnoop datalinks ``decodeRecord(linkType:data:flags:timestampMicros:)``
    /// handles (the two sets of numbers do not overlap).
    static let pcapLinkTypes: [UInt32] = [
        CaptureLinkType.pcapH4WithPseudoHeader, CaptureLinkType.pcapH4, CaptureLinkType.pcapLinuxMonitor,
    ]
    static let btsnoopDatalinks: [UInt32] = [
        CaptureLinkType.btsnoopHCI, CaptureLinkType.btsnoopUART, CaptureLinkType.btsnoopMonitor,
    ]

    /// The HCI packet one record holds, or nil when it holds none (the caller counts it as
    /// skipped). `flags` is the btsnoop record's flags word; pcap records have none (0).
    static func decodeRecord(linkType: UInt32, data: ArraySlice<UInt8>, flags: UInt32,
                             timestampMicros: Int64) -> CaptureRecord? {
        /// Data led by its H4 indicator.
        func h4(_ data: ArraySlice<UInt8>, _ direction: CaptureDirection) -> CaptureRecord? {
            guard let first = data.first else { return nil }
            return CaptureRecord(timestampMicros: timestampMicros, direction: direction,
                                 packet: H4Packet(type: H4PacketType(rawValue: first), payload: Array(data.dropFirst())))
        }
        /// A BlueZ monitor record: the opcode says what the data (no indicator) is.
        func monitor(index: UInt16, opcode: UInt16, _ data: ArraySlice<UInt8>) -> CaptureRecord? {
            guard let (type, direction) = monitorPacket(opcode) else { return nil }
            return CaptureRecord(timestampMicros: timestampMicros, direction: direction,
                                 packet: H4Packet(type: type, payload: Array(data)), controllerIndex: index)
        }
        let received = flags & 1 != 0

        switch linkType {
        case CaptureLinkType.pcapH4WithPseudoHeader:
            // 4-byte big-endian direction word, then H4.
            guard data.count >= 5 else { return nil }
            return h4(data.dropFirst(4), bigEndian32(data, at: data.startIndex) & 1 == 0 ? .sent : .received)
        case CaptureLinkType.pcapH4:
            guard let first = data.first else { return nil }
            return h4(data, H4PacketType(rawValue: first) == .command ? .sent : .received)
        case CaptureLinkType.btsnoopUART:
            return h4(data, received ? .received : .sent)
        case CaptureLinkType.btsnoopHCI:
            guard !data.isEmpty else { return nil }
            // Bit 1 set: command (sent) or event (received); clear: data. Data without an
            // indicator cannot tell ACL from SCO; like BlueZ, we take it as ACL.
            let type: H4PacketType = flags & 2 != 0 ? (received ? .event : .command) : .acl
            return CaptureRecord(timestampMicros: timestampMicros, direction: received ? .received : .sent,
                                 packet: H4Packet(type: type, payload: Array(data)))
        case CaptureLinkType.pcapLinuxMonitor:
            // Big-endian adapter index and opcode, then the packet.
            guard data.count >= 4 else { return nil }
            let start = data.startIndex
            return monitor(index: UInt16(data[start]) << 8 | UInt16(data[start + 1]),
                           opcode: UInt16(data[start + 2]) << 8 | UInt16(data[start + 3]), data.dropFirst(4))
        case CaptureLinkType.btsnoopMonitor:
            // The flags hold the adapter index and the opcode.
            return monitor(index: UInt16(truncatingIfNeeded: flags >> 16), opcode: UInt16(truncatingIfNeeded: flags), data)
        default:
            return nil
        }
    }

    /// The packet a BlueZ monitor opcode carries (btsnoop 2001, pcap 254), or nil for the
    /// opcodes that carry no HCI packet (index events, notes, logging, control channel).
    static func monitorPacket(_ opcode: UInt16) -> (H4PacketType, CaptureDirection)? {
        switch opcode {
        case 2: (.command, .sent)      // BTSNOOP_OPCODE_COMMAND_PKT
        case 3: (.event, .received)    // BTSNOOP_OPCODE_EVENT_PKT
        case 4: (.acl, .sent)          // BTSNOOP_OPCODE_ACL_TX_PKT
        case 5: (.acl, .received)      // BTSNOOP_OPCODE_ACL_RX_PKT
        case 6: (.sco, .sent)          // BTSNOOP_OPCODE_SCO_TX_PKT
        case 7: (.sco, .received)      // BTSNOOP_OPCODE_SCO_RX_PKT
        case 18: (.iso, .sent)         // BTSNOOP_OPCODE_ISO_TX_PKT
        case 19: (.iso, .received)     // BTSNOOP_OPCODE_ISO_RX_PKT
        default: nil
        }
    }

    // MARK: - Helpers

    private static func bigEndian32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

private extension CaptureFile {
    /// Appends a decoded record, or counts a record that held no HCI packet.
    mutating func add(_ record: CaptureRecord?) {
        if let record { records.append(record) } else { skipped += 1 }
    }
}
