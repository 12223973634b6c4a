#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files to send from disk, opening the path at every read: a file removed, truncated
/// or replaced by a folder mid-transfer is seen at the next chunk, and a failed read is never
/// retried but an interrupted one ("You must ensure that the file remains
/// at the specified path for the duration of the transfer", "Data and Files").
public struct DiskFileSource: SparkFileSource {
    public init() {}

    public func size(of path: String) throws(SparkFileFailure) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SparkFileFailure.system(path, "cannot stat") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw SparkFileFailure(path: path, reason: "not a regular file") }
        return UInt64(info.st_size)
    }

    public func read(_ path: String, at offset: UInt64, count: Int) throws(SparkFileFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SparkFileFailure.system(path, "cannot open") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(offset) + off_t(filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw SparkFileFailure.system(path, SparkFileFailure.readStep) }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

}
