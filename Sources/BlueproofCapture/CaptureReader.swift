import BlueproofWire

/// Reads captures recorded by blueproof or elsewhere: pcap and pcapng (both parsed here; pcapng
/// with several interfaces of several link types) with link types 201, 187 and 254, and
/// btsnoop (parsed here) with datalinks 1001, 1002 and 2001.
public enum CaptureReader {
    /// Microseconds from btsnoop's epoch ("midnight, January 1st, 0 AD" as btsnoop counts it)
    /// to the Unix epoch. BlueZ writes `unix µs - 946684800 s + 0x00E03AB44A676000`, i.e. the
    /// 2000-01-01 mark is 0x00E03AB44A676000; Wireshark subtracts the same 0x00DCDDB30F2F8000.
    public static let btsnoopUnixEpochOffsetMicros: Int64 = 0x00DC_DDB3_0F2F_8000

    /// The most bytes one record may hold: libpcap's own bound (its `MAXIMUM_SNAPLEN`), far
    /// above the largest HCI packet. A record declaring more is refused
    /// (``CaptureError/recordTooLong(path:record:byteOffset:length:limit:)``), never allocated.
    public static let maximumRecordLength = 262_144

    /// Opens the file at `path` for reading one record at a time, finding its format from its
    /// first bytes.
    ///
    /// Throws when the file cannot be opened (no such file, a directory, permission denied, a
    /// symbolic link loop), is empty, is not a capture, uses a link type we do not decode, or is
    /// cut inside its file header. A cut or corrupt record later ends the stream and is reported
    /// in ``CaptureStream/truncated``.
    public static func open(path: String) throws(CaptureError) -> CaptureStream {
        let file = try CaptureDescriptor(path: path)
        let magic: [UInt8]
        do {
            magic = try file.read(upTo: 8)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        if magic.isEmpty { throw .empty(path: path) }
        guard let format = detect(magic) else {
            throw .notACapture(
                path: path,
                reason: "first bytes \(magic.map { hex($0) }.joined(separator: " ")) match neither pcap, pcapng nor btsnoop")
        }
        guard file.rewind() else { throw .cannotOpen(path: path, reason: "cannot go back to the first byte") }
        switch format {
        case .btsnoop:
            let source = try BtsnoopSource(path: path, file: file)
            return CaptureStream(path: path, format: format, linkType: source.datalink, source: source)
        case .pcap:
            let source = try PcapSource(path: path, file: file)
            return CaptureStream(path: path, format: format, linkType: source.linkType, source: source)
        case .pcapng:
            let source = try PcapngSource(path: path, file: file)
            return CaptureStream(path: path, format: format, linkType: source.linkType, source: source)
        }
    }

    /// Reads the whole file at `path` into memory: ``open(path:)``, every record collected.
    ///
    /// A file cut inside a record keeps every record before the cut and reports the cut in
    /// ``CaptureFile/truncated``. Throws as ``open(path:)`` does. For files of any size, walk
    /// ``open(path:)`` instead.
    public static func read(path: String) throws(CaptureError) -> CaptureFile {
        let stream = try open(path: path)
        var records: [CaptureRecord] = []
        var noteFrames: [Int] = []
        while let entry = stream.nextEntry() {
            switch entry {
            case let .packet(record): records.append(record)
            case .note: noteFrames.append(stream.frameNumber)
            }
        }
        return CaptureFile(stream, records: records, noteFrames: noteFrames)
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

    /// What a record that holds no HCI packet is (see ``decodeRecord(linkType:data:flags:timestampMicros:)``).
    static func note(linkType: UInt32, data: ArraySlice<UInt8>, flags: UInt32, timestampMicros: Int64) -> CaptureNote {
        switch linkType {
        case CaptureLinkType.pcapLinuxMonitor where data.count >= 4:
            let start = data.startIndex
            if let note = CaptureNote.monitor(opcode: UInt16(data[start + 2]) << 8 | UInt16(data[start + 3]),
                                              index: UInt16(data[start]) << 8 | UInt16(data[start + 1]),
                                              data: data.dropFirst(4), timestampMicros: timestampMicros) {
                return note
            }
        case CaptureLinkType.btsnoopMonitor:
            if let note = CaptureNote.monitor(opcode: UInt16(truncatingIfNeeded: flags), index: UInt16(truncatingIfNeeded: flags >> 16),
                                              data: data, timestampMicros: timestampMicros) {
                return note
            }
        default:
            break
        }
        let why = pcapLinkTypes.contains(linkType) || btsnoopDatalinks.contains(linkType)
            ? "\(data.count) byte(s), too short for link type \(linkType)" : "link type \(linkType) is not decoded"
        return CaptureNote(timestampMicros: timestampMicros, controllerIndex: nil, name: "No HCI Packet", detail: why)
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

    /// µs since the Unix epoch for a btsnoop timestamp, clamped at `Int64.max` for stamps past
    /// what it holds (``CaptureRecord/isTimestampInRange``); no 64-bit stamp falls below `Int64.min`.
    static func btsnoopUnixMicros(_ stamp: UInt64) -> Int64 {
        let offset = UInt64(btsnoopUnixEpochOffsetMicros)
        guard stamp < offset else { return Int64(exactly: stamp - offset) ?? .max }
        return -Int64(offset - stamp)  // below the offset, itself far below Int64.max
    }

    /// `value` in hexadecimal, `0x`-prefixed, for error messages.
    static func hex32(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }

    /// The big-endian 32-bit word at `offset`.
    static func bigEndian32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int) -> UInt32
    where Bytes.Index == Int {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
