/// The records of a classic pcap file, parsed here from a ``CaptureReadBuffer`` instead of
/// libpcap's `pcap_next_ex`, which copied every record once more (issue 16).
///
/// pcap (draft-ietf-opsawg-pcap §4–5): a 24-byte file header (magic, version 2.x, reserved
/// words, snap length, link type) in the byte order the magic gives, then records of a 16-byte
/// header (seconds, microseconds or nanoseconds, captured length, original length) followed by
/// the captured bytes. The "modified" format (magic 0xA1B2CD34) adds 8 bytes to each record
/// header (interface index, protocol, packet type, padding).
final class PcapSource: CaptureRecordSource {
    static let headerSize = 24

    let linkType: UInt32
    private let path: String
    private let buffer: CaptureReadBuffer
    /// True when the file's words are big-endian.
    private let bigEndian: Bool
    private let nanoseconds: Bool
    /// 16, or 24 for the modified format.
    private let recordHeaderSize: Int
    /// The most bytes of a record handed out: the file's snap length, or
    /// ``CaptureReader/maximumRecordLength`` when it declares none (0) or more.
    private let snapLength: Int
    /// The number of the record being read (0: the file header).
    private var number = 0

    /// Reads the file header of `file` (from its first byte). Throws when it is cut, or names
    /// a version or link type we do not decode.
    init(path: String, file: CaptureDescriptor) throws(CaptureError) {
        let header: [UInt8]
        do {
            header = try file.read(upTo: Self.headerSize)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        guard header.count == Self.headerSize else {
            throw .truncated(path: path, record: 0, byteOffset: 0,
                             reason: "pcap file header needs \(Self.headerSize) bytes, the file has \(header.count)")
        }
        let magic = CaptureReader.bigEndian32(header, at: 0)
        guard let (bigEndian, nanoseconds, modified) = Self.kind(magic) else {
            throw .notACapture(path: path, reason: "pcap magic \(CaptureReader.hex32(magic)) is not one pcap defines")
        }
        self.bigEndian = bigEndian
        self.nanoseconds = nanoseconds
        recordHeaderSize = modified ? 24 : 16
        let word = { (offset: Int) in Self.word(header, at: offset, bigEndian: bigEndian) }
        // Two 16-bit halves, major first, in the file's byte order.
        let (major, minor) = bigEndian ? (word(4) >> 16, word(4) & 0xFFFF) : (word(4) & 0xFFFF, word(4) >> 16)
        guard major == 2 else {
            throw .unsupported(path: path, reason: "pcap version \(major).\(minor), we read version 2")
        }
        let snap = Int(word(16))
        snapLength = snap == 0 || snap > CaptureReader.maximumRecordLength ? CaptureReader.maximumRecordLength : snap
        // The low 16 bits are the link type; the bits above, the FCS length (draft §5.8).
        linkType = word(20) & 0xFFFF
        guard CaptureReader.pcapLinkTypes.contains(linkType) else {
            throw .unsupported(path: path, reason: "pcap link type \(linkType) is not a Bluetooth HCI link type "
                + "we decode (201 H4 with direction, 187 H4, 254 Linux monitor)")
        }
        self.path = path
        buffer = CaptureReadBuffer(path: path, file: file, offset: Self.headerSize)
    }

    private(set) lazy var linkTypes: [UInt32] = [linkType]

    func next() throws(CaptureError) -> RawCaptureRecord? {
        number += 1
        var available = try buffer.fill(recordHeaderSize, record: number)
        guard available > 0 else { return nil }
        guard available >= recordHeaderSize else {
            throw .truncated(path: path, record: number, byteOffset: buffer.offset,
                             reason: "record header needs \(recordHeaderSize) bytes, \(available) left")
        }
        let at = buffer.start
        let captured = Int(Self.word(buffer.bytes, at: at + 8, bigEndian: bigEndian))
        guard captured <= CaptureReader.maximumRecordLength else {
            throw .recordTooLong(path: path, record: number, byteOffset: buffer.offset, length: captured,
                                 limit: CaptureReader.maximumRecordLength)
        }
        // Seconds and fraction are signed 32-bit, as libpcap reads them.
        let seconds = Int64(Int32(bitPattern: Self.word(buffer.bytes, at: at, bigEndian: bigEndian)))
        let fraction = Int64(Int32(bitPattern: Self.word(buffer.bytes, at: at + 4, bigEndian: bigEndian)))
        let micros = CaptureRecord.clampedMicros(seconds: seconds, microseconds: nanoseconds ? fraction / 1000 : fraction)
        // Both terms are bounded (24 and 256 KiB): no overflow. Most records are in the buffer already.
        let needed = recordHeaderSize + captured
        available = buffer.buffered >= needed ? needed : try buffer.fill(needed, record: number)
        guard available - recordHeaderSize >= captured else {
            throw .truncated(path: path, record: number, byteOffset: buffer.offset,
                             reason: "record holds \(captured) bytes, \(available - recordHeaderSize) left")
        }
        // A record longer than the snap length keeps its first snap-length bytes, as libpcap does.
        let dataStart = buffer.start + recordHeaderSize
        let record = RawCaptureRecord(data: buffer.bytes[dataStart..<(dataStart + min(captured, snapLength))], flags: 0,
                                      timestampMicros: micros, linkType: linkType)
        buffer.consume(recordHeaderSize + captured)
        return record
    }

    /// Byte order, nanosecond times and the modified record header, by the file's magic
    /// (read big-endian); nil for a magic pcap does not define.
    static func kind(_ magic: UInt32) -> (bigEndian: Bool, nanoseconds: Bool, modified: Bool)? {
        switch magic {
        case 0xD4C3_B2A1: (false, false, false)  // little-endian file on disk
        case 0xA1B2_C3D4: (true, false, false)
        case 0x4D3C_B2A1: (false, true, false)
        case 0xA1B2_3C4D: (true, true, false)
        case 0x34CD_B2A1: (false, false, true)
        case 0xA1B2_CD34: (true, false, true)
        default: nil
        }
    }

    /// The 32-bit word at `offset`, in the file's byte order.
    @inline(__always)
    static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32 {
        let big = CaptureReader.bigEndian32(bytes, at: offset)
        return bigEndian ? big : big.byteSwapped
    }
}
