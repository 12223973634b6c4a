/// A capture file read forward in chunks of at least ``chunkSize`` bytes, for the record
/// layers parsed here (btsnoop, pcapng): ask for `count` bytes with ``fill(_:)``, read them
/// from ``bytes`` at ``start``, then ``consume(_:)`` them. Holds one chunk or one record,
/// whichever is larger, whatever the file's size.
final class CaptureReadBuffer {
    /// Bytes asked of the file per read.
    static let chunkSize = 64 * 1024

    private let path: String
    private let file: CaptureDescriptor
    /// Bytes read and not yet consumed start at `bytes[start]`, which is byte ``offset`` of the file.
    private(set) var bytes: [UInt8] = []
    private(set) var start = 0
    private(set) var offset: Int
    private var atEnd = false

    /// Reads `file` from byte `offset`, where it stands now.
    init(path: String, file: CaptureDescriptor, offset: Int) {
        self.path = path
        self.file = file
        self.offset = offset
    }

    /// Bytes read and not yet consumed.
    var buffered: Int { bytes.count - start }

    /// Reads until `count` bytes are buffered or the file ends; returns the bytes buffered
    /// (at most `count`). A failed read is a cut at `record`.
    func fill(_ count: Int, record: Int) throws(CaptureError) -> Int {
        while buffered < count && !atEnd {
            if start > 0 {
                bytes.removeSubrange(..<start)
                start = 0
            }
            let chunk: [UInt8]
            do {
                chunk = try file.read(upTo: max(Self.chunkSize, count - bytes.count))
            } catch {
                throw .truncated(path: path, record: record, byteOffset: offset, reason: "reading failed: \(error.reason)")
            }
            atEnd = chunk.isEmpty
            bytes += chunk
        }
        return min(buffered, count)
    }

    /// Hands `count` buffered bytes over as read.
    func consume(_ count: Int) {
        start += count
        offset += count
    }
}
