/// The records of a btsnoop file, parsed here from reads of at most ``chunkSize`` bytes.
///
/// btsnoop: a 16-byte header ("btsnoop\0", version 1, datalink, big-endian), then records of
/// a 24-byte header (original length, included length, flags, cumulative drops, 64-bit
/// timestamp in µs since btsnoop's epoch; all big-endian) followed by the included bytes.
final class BtsnoopSource: CaptureRecordSource {
    /// Bytes asked of the file per read.
    static let chunkSize = 64 * 1024
    static let headerSize = 16
    static let recordHeaderSize = 24

    let datalink: UInt32
    private let path: String
    private let file: CaptureDescriptor
    /// Bytes read and not yet handed out start at `buffer[start]`, which is byte `offset` of the file.
    private var buffer: [UInt8] = []
    private var start = 0
    private var offset = 0
    private var atEnd = false
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
        self.file = file
        offset = Self.headerSize
    }

    func next() throws(CaptureError) -> RawCaptureRecord? {
        number += 1
        var available = try fill(Self.recordHeaderSize)
        guard available > 0 else { return nil }
        guard available >= Self.recordHeaderSize else {
            throw .truncated(path: path, record: number, byteOffset: offset,
                             reason: "record header needs \(Self.recordHeaderSize) bytes, \(available) left")
        }
        let included = Int(CaptureReader.bigEndian32(buffer, at: start + 4))
        let flags = CaptureReader.bigEndian32(buffer, at: start + 8)
        let stamp = UInt64(CaptureReader.bigEndian32(buffer, at: start + 16)) << 32
            | UInt64(CaptureReader.bigEndian32(buffer, at: start + 20))
        guard included <= CaptureReader.maximumRecordLength else {
            throw .recordTooLong(path: path, record: number, byteOffset: offset, length: included,
                                 limit: CaptureReader.maximumRecordLength)
        }
        // Both terms are bounded (24 and 256 KiB): no overflow.
        available = try fill(Self.recordHeaderSize + included)
        guard available - Self.recordHeaderSize >= included else {
            throw .truncated(path: path, record: number, byteOffset: offset,
                             reason: "record holds \(included) bytes, \(available - Self.recordHeaderSize) left")
        }
        let dataStart = start + Self.recordHeaderSize
        let record = RawCaptureRecord(data: buffer[dataStart..<(dataStart + included)], flags: flags,
                                      timestampMicros: CaptureReader.btsnoopUnixMicros(stamp))
        consume(Self.recordHeaderSize + included)
        return record
    }

    /// Reads until `count` bytes are buffered or the file ends; returns the bytes buffered.
    private func fill(_ count: Int) throws(CaptureError) -> Int {
        while buffer.count - start < count && !atEnd {
            if start > 0 {
                buffer.removeSubrange(..<start)
                start = 0
            }
            let chunk: [UInt8]
            do {
                chunk = try file.read(upTo: max(Self.chunkSize, count - buffer.count))
            } catch {
                throw .truncated(path: path, record: number, byteOffset: offset, reason: "reading failed: \(error.reason)")
            }
            atEnd = chunk.isEmpty
            buffer += chunk
        }
        return min(buffer.count - start, count)
    }

    private func consume(_ count: Int) {
        start += count
        offset += count
    }
}
