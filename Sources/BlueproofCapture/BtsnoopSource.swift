/// The records of a btsnoop file, parsed here from a ``CaptureReadBuffer``.
///
/// btsnoop: a 16-byte header ("btsnoop\0", version 1, datalink, big-endian), then records of
/// a 24-byte header (original length, included length, flags, cumulative drops, 64-bit
/// timestamp in µs since btsnoop's epoch; all big-endian) followed by the included bytes.
final class BtsnoopSource: CaptureRecordSource {
    static let headerSize = 16
    static let recordHeaderSize = 24

    let datalink: UInt32
    private let path: String
    private let buffer: CaptureReadBuffer
    /// The number of the record being read (0: the file header).
    private var number = 0

    /// Reads the file header of `file` (from its first byte). Throws when it is cut, or names
    /// a version or datalink we do not decode.
    init(path: String, file: CaptureDescriptor) throws(CaptureError) {
        let header: [UInt8]
        do {
            header = try file.read(upTo: Self.headerSize)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        guard header.count == Self.headerSize else {
            throw .truncated(path: path, record: 0, byteOffset: 0,
                             reason: "btsnoop header needs \(Self.headerSize) bytes, the file has \(header.count)")
        }
        let version = CaptureReader.bigEndian32(header, at: 8)
        guard version == 1 else {
            throw .unsupported(path: path, reason: "btsnoop version \(version), only version 1 exists")
        }
        datalink = CaptureReader.bigEndian32(header, at: 12)
        guard CaptureReader.btsnoopDatalinks.contains(datalink) else {
            throw .unsupported(path: path, reason: "btsnoop datalink \(datalink) (we decode 1001 HCI, 1002 H4, 2001 BlueZ monitor)")
        }
        self.path = path
        buffer = CaptureReadBuffer(path: path, file: file, offset: Self.headerSize)
    }

    private(set) lazy var linkTypes: [UInt32] = [datalink]

    func next() throws(CaptureError) -> RawCaptureRecord? {
        number += 1
        var available = try buffer.fill(Self.recordHeaderSize, record: number)
        guard available > 0 else { return nil }
        guard available >= Self.recordHeaderSize else {
            throw .truncated(path: path, record: number, byteOffset: buffer.offset,
                             reason: "record header needs \(Self.recordHeaderSize) bytes, \(available) left")
        }
        let included = Int(CaptureReader.bigEndian32(buffer.bytes, at: buffer.start + 4))
        let flags = CaptureReader.bigEndian32(buffer.bytes, at: buffer.start + 8)
        let stamp = UInt64(CaptureReader.bigEndian32(buffer.bytes, at: buffer.start + 16)) << 32
            | UInt64(CaptureReader.bigEndian32(buffer.bytes, at: buffer.start + 20))
        guard included <= CaptureReader.maximumRecordLength else {
            throw .recordTooLong(path: path, record: number, byteOffset: buffer.offset, length: included,
                                 limit: CaptureReader.maximumRecordLength)
        }
        // Both terms are bounded (24 and 256 KiB): no overflow.
        available = try buffer.fill(Self.recordHeaderSize + included, record: number)
        guard available - Self.recordHeaderSize >= included else {
            throw .truncated(path: path, record: number, byteOffset: buffer.offset,
                             reason: "record holds \(included) bytes, \(available - Self.recordHeaderSize) left")
        }
        let dataStart = buffer.start + Self.recordHeaderSize
        let record = RawCaptureRecord(data: buffer.bytes[dataStart..<(dataStart + included)], flags: flags,
                                      timestampMicros: CaptureReader.btsnoopUnixMicros(stamp), linkType: datalink)
        buffer.consume(Self.recordHeaderSize + included)
        return record
    }
}
