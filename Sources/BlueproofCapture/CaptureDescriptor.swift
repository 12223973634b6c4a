import Foundation

/// A capture file open for reading: the descriptor ``CaptureReader`` reads through, closed
/// when released. Opening says plainly why a path is not a file we can read.
///
/// Not Sendable: one reader owns it.
final class CaptureDescriptor {
    let path: String
    private var descriptor: Int32

    /// Opens `path` read-only; throws ``CaptureError/cannotOpen(path:reason:)`` with the reason
    /// in words (no such file, is a directory, permission denied, a link loop, ...).
    init(path: String) throws(CaptureError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: CaptureError.openReason(errno: errno)) }
        var status = stat()
        let statted = fstat(descriptor, &status)
        let code = errno
        let kind = status.st_mode & S_IFMT
        guard statted == 0, kind == S_IFREG else {
            Glibc.close(descriptor)
            let reason = statted != 0 ? CaptureError.openReason(errno: code)
                : kind == S_IFDIR ? CaptureError.openReason(errno: EISDIR) : "not a regular file"
            throw .cannotOpen(path: path, reason: reason)
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Up to `count` bytes from where the file stands; fewer only at the end of the file.
    /// Throws the `errno` of a failed `read(2)`.
    func read(upTo count: Int) throws(CaptureDescriptorError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(CaptureDescriptorError) -> Int in
            try read(into: buffer)
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Reads into `buffer` from where the file stands until it is full or the file ends;
    /// returns the bytes read. Throws the `errno` of a failed `read(2)`.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(CaptureDescriptorError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got = Glibc.read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw CaptureDescriptorError(errno: errno) }
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    /// Goes back to the first byte; false when the file cannot seek.
    func rewind() -> Bool {
        lseek(descriptor, 0, SEEK_SET) == 0
    }

    /// Hands the descriptor over to a new owner, who closes it; this object no longer does.
    func release() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }
}

/// A `read(2)` that failed.
struct CaptureDescriptorError: Error {
    var errno: Int32

    var reason: String { String(cString: strerror(errno)) }
}

extension CaptureError {
    /// Why opening a capture failed with `code`, in words.
    static func openReason(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case EISDIR: "is a directory"
        case ELOOP: "too many levels of symbolic links"
        case ENOTDIR: "a component of the path is not a directory"
        default: String(cString: strerror(code))
        }
    }
}
