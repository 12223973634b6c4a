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
            // A new array of the bytes kept and the file's next ones, read straight into it: no
            // chunk array, no second copy, and a record handed out earlier keeps the old one.
            let kept = buffered
            let wanted = max(Self.chunkSize, count - kept)
            var failure: CaptureDescriptorError?
            let refilled = [UInt8](unsafeUninitializedCapacity: kept + wanted) { storage, initialized in
                bytes.withUnsafeBufferPointer { old in
                    for index in 0..<kept { storage[index] = old[start + index] }
                }
                do throws(CaptureDescriptorError) {
                    initialized = kept + (try file.read(into: UnsafeMutableBufferPointer(rebasing: storage[kept...])))
                } catch {
                    failure = error
                    initialized = kept
                }
            }
            if let failure {
                throw .truncated(path: path, record: record, byteOffset: offset, reason: "reading failed: \(failure.reason)")
            }
            atEnd = refilled.count == kept
            bytes = refilled
            start = 0
        }
        return min(buffered, count)
    }

    /// Hands `count` buffered bytes over as read.
    func consume(_ count: Int) {
        start += count
        offset += count
    }
}
