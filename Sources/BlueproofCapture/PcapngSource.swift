/// The records of a pcapng file, parsed here (not through libpcap, which refuses a file whose
/// interfaces have different link types), from a ``CaptureReadBuffer``.
///
/// pcapng (draft-ietf-opsawg-pcapng §3–4): blocks of type, total length, body, total length
/// again, in the byte order the Section Header Block's magic gives. Interface Description
/// Blocks give each interface its link type and time resolution; Enhanced, Simple and
/// (obsolete) Packet Blocks are the frames, numbered as Wireshark numbers them; every other
/// block is passed over.
final class PcapngSource: CaptureRecordSource {
    /// The largest block read: a record of ``CaptureReader/maximumRecordLength`` bytes, its
    /// block header, and room for options.
    static let maximumBlockLength = CaptureReader.maximumRecordLength + 64 * 1024
    /// Interfaces one section may describe; a further one is a malformed file.
    static let maximumInterfaces = 1024

    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let interfaceDescription: UInt32 = 1
    static let obsoletePacket: UInt32 = 2
    static let simplePacket: UInt32 = 3
    static let enhancedPacket: UInt32 = 6

    /// One interface of the current section.
    struct Interface {
        var linkType: UInt32
        var snapLength: Int
        /// Time units per second, as a power of 10 (`negativePowerOf2` false) or of 2 (§4.2 if_tsresol).
        var resolutionExponent: UInt8 = 6
        var negativePowerOf2 = false
        /// Seconds added to every time (§4.2 if_tsoffset).
        var offsetSeconds: Int64 = 0
    }

    private let path: String
    private let buffer: CaptureReadBuffer
    private var littleEndian = true
    /// The interfaces of the current section, in the order described.
    private(set) var interfaces: [Interface] = []
    /// Frames (packet blocks) read so far.
    private var frames = 0

    /// Reads the section header and every block up to the first frame, so that the interfaces
    /// described first are known. Throws when the header is cut or wrong, or when the file
    /// describes interfaces and none has a link type we decode.
    init(path: String, file: CaptureDescriptor) throws(CaptureError) {
        self.path = path
        buffer = CaptureReadBuffer(path: path, file: file, offset: 0)
        while let type = try peekType(), !Self.isFrame(type) {
            try readBlock()
        }
        if !interfaces.isEmpty, !interfaces.contains(where: { CaptureReader.pcapLinkTypes.contains($0.linkType) }) {
            let types = interfaces.map { String($0.linkType) }.joined(separator: ", ")
            throw .unsupported(path: path, reason: "pcapng link type \(types) is not a Bluetooth HCI link type "
                + "we decode (201 H4 with direction, 187 H4, 254 Linux monitor)")
        }
    }

    /// The link type of the first interface (0 when the file describes none).
    var linkType: UInt32 { interfaces.first?.linkType ?? 0 }

    /// The link types of the interfaces described so far, in order (kept, not mapped anew:
    /// the stream asks after every record).
    private(set) var linkTypes: [UInt32] = []

    func next() throws(CaptureError) -> RawCaptureRecord? {
        while true {
            guard let type = try peekType() else { return nil }
            if Self.isFrame(type) {
                let record = try readBlock()
                frames += 1
                return record
            }
            try readBlock()
        }
    }

    private static func isFrame(_ type: UInt32) -> Bool {
        type == enhancedPacket || type == simplePacket || type == obsoletePacket
    }

    // MARK: Blocks

    /// The type of the next block, nil at the end of the file.
    private func peekType() throws(CaptureError) -> UInt32? {
        let available = try buffer.fill(4, record: frames + 1)
        if available == 0 { return nil }
        guard available == 4 else { throw cut("block type needs 4 bytes, \(available) left") }
        return word(0)
    }

    /// Reads the next block whole; returns the record when it is a frame.
    @discardableResult
    private func readBlock() throws(CaptureError) -> RawCaptureRecord? {
        let record = frames + 1
        guard try buffer.fill(4, record: record) == 4 else { throw cut("block type needs 4 bytes") }
        let type = word(0)
        // A section header's length is in the byte order its magic, after the length, gives.
        let header = type == Self.sectionHeader ? 12 : 8
        guard try buffer.fill(header, record: record) == header else { throw cut("block header needs \(header) bytes") }
        if type == Self.sectionHeader {
            // The byte-order magic, after type and length, sets the order of the whole section.
            switch word(8) {
            case 0x1A2B_3C4D: break
            case 0x4D3C_2B1A: littleEndian.toggle()
            default: throw malformed("section header byte-order magic \(CaptureReader.hex32(word(8))) is not 0x1A2B3C4D")
            }
        }
        let length = Int(word(4))
        guard length <= Self.maximumBlockLength else {
            throw .recordTooLong(path: path, record: record, byteOffset: buffer.offset, length: length,
                                 limit: Self.maximumBlockLength)
        }
        guard length >= 12, length % 4 == 0 else { throw malformed("block length \(length) is under 12 or not a multiple of 4") }
        let available = try buffer.fill(length, record: record)
        guard available == length else { throw cut("block of \(length) bytes, \(available) left") }
        guard Int(word(length - 4)) == length else {
            throw malformed("block length \(length) and trailing length \(word(length - 4)) differ")
        }
        defer { buffer.consume(length) }
        let body = length - 12
        switch type {
        case Self.sectionHeader:
            guard body >= 16, half(12) == 1 else { throw malformed("section header of version \(half(12)), only 1 exists") }
            interfaces = []
            linkTypes = []
            return nil
        case Self.interfaceDescription:
            guard body >= 8 else { throw malformed("interface description of \(body) bytes, needs 8") }
            guard interfaces.count < Self.maximumInterfaces else {
                throw malformed("more than \(Self.maximumInterfaces) interfaces in one section")
            }
            interfaces.append(interface(body: body))
            linkTypes.append(interfaces[interfaces.count - 1].linkType)
            return nil
        case Self.enhancedPacket, Self.obsoletePacket:
            guard body >= 20 else { throw malformed("packet block of \(body) bytes, needs 20") }
            let index = type == Self.enhancedPacket ? Int(word(8)) : Int(half(8))
            let captured = Int(word(20))
            guard captured <= body - 20 else { throw malformed("packet block holds \(body - 20) bytes, declares \(captured)") }
            let units = UInt64(word(12)) << 32 | UInt64(word(16))
            return try frame(interface: index, units: units, dataAt: 28, count: captured)
        case Self.simplePacket:
            guard body >= 4 else { throw malformed("simple packet block of \(body) bytes, needs 4") }
            let snap = interfaces.first.map { $0.snapLength == 0 ? Int.max : $0.snapLength } ?? Int.max
            return try frame(interface: 0, units: nil, dataAt: 12, count: min(Int(word(8)), snap, body - 4))
        default:
            return nil
        }
    }

    /// The frame at `dataAt` in the block being read, on interface `index`.
    private func frame(interface index: Int, units: UInt64?, dataAt: Int, count: Int) throws(CaptureError) -> RawCaptureRecord {
        guard interfaces.indices.contains(index) else {
            throw malformed("packet on interface \(index), but the section describes \(interfaces.count)")
        }
        guard count <= CaptureReader.maximumRecordLength else {
            throw .recordTooLong(path: path, record: frames + 1, byteOffset: buffer.offset, length: count,
                                 limit: CaptureReader.maximumRecordLength)
        }
        let interface = interfaces[index]
        let micros = units.map { Self.micros(units: $0, interface: interface) } ?? 0
        let start = buffer.start + dataAt
        return RawCaptureRecord(data: buffer.bytes[start..<(start + count)], flags: 0, timestampMicros: micros,
                                linkType: interface.linkType, interface: index)
    }

    /// The interface a description block of `body` bytes gives, with its time options.
    private func interface(body: Int) -> Interface {
        var interface = Interface(linkType: UInt32(half(8)), snapLength: Int(word(12)))
        var at = 16
        while at + 4 <= 8 + body {
            let code = half(at), length = Int(half(at + 2))
            guard code != 0, at + 4 + length <= 8 + body else { break }
            if code == 9, length >= 1 {
                let value = buffer.bytes[buffer.start + at + 4]
                interface.negativePowerOf2 = value & 0x80 != 0
                interface.resolutionExponent = value & 0x7F
            } else if code == 14, length >= 8 {
                let first = UInt64(word(at + 4)), second = UInt64(word(at + 8))
                interface.offsetSeconds = Int64(bitPattern: littleEndian ? second << 32 | first : first << 32 | second)
            }
            at += 4 + (length + 3) / 4 * 4
        }
        return interface
    }

    /// Microseconds since the Unix epoch for `units` of the interface's resolution, clamped
    /// to `Int64.max` when they do not fit (``CaptureRecord/isTimestampInRange``).
    static func micros(units: UInt64, interface: Interface) -> Int64 {
        let exponent = Int(interface.resolutionExponent)
        var micros: UInt64
        if interface.negativePowerOf2 {
            // units × 10⁶ / 2ⁿ, through the 128-bit product.
            let (high, low) = units.multipliedFullWidth(by: 1_000_000)
            if exponent >= 64 {
                micros = high >> (exponent - 64)
            } else if high >> exponent != 0 {
                return .max
            } else {
                micros = exponent == 0 ? low : high << (64 - exponent) | low >> exponent
            }
        } else if exponent <= 6 {
            let (scaled, overflow) = units.multipliedReportingOverflow(by: power10(6 - exponent))
            if overflow { return .max }
            micros = scaled
        } else {
            micros = exponent - 6 > 19 ? 0 : units / power10(exponent - 6)
        }
        return clamp(micros, interface)
    }

    private static func clamp(_ micros: UInt64, _ interface: Interface) -> Int64 {
        guard let signed = Int64(exactly: micros) else { return .max }
        return CaptureRecord.clampedMicros(seconds: interface.offsetSeconds, microseconds: signed)
    }

    private static func power10(_ exponent: Int) -> UInt64 {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    // MARK: Reading the block being read

    /// The 32-bit word at `at` bytes into the block being read, in the section's byte order.
    private func word(_ at: Int) -> UInt32 {
        let value = CaptureReader.bigEndian32(buffer.bytes, at: buffer.start + at)
        return littleEndian ? value.byteSwapped : value
    }

    private func half(_ at: Int) -> UInt16 {
        let bytes = buffer.bytes, start = buffer.start + at
        let value = UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
        return littleEndian ? value.byteSwapped : value
    }


    private func cut(_ reason: String) -> CaptureError {
        .truncated(path: path, record: frames + 1, byteOffset: buffer.offset, reason: reason)
    }

    private func malformed(_ reason: String) -> CaptureError {
        .malformed(path: path, record: frames + 1, byteOffset: buffer.offset, reason: reason)
    }
}
