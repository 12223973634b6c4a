#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces files so that a crash or a kill at any moment leaves the old file or the new one,
/// never neither and never half of one: a temporary file in the same folder, written whole,
/// fsynced, renamed over the old one, then the folder fsynced so the rename itself lasts.
public enum AtomicFile {
    /// The prefix of the temporary files ``replace(_:named:in:mode:)`` makes for `name`.
    public static func temporaryPrefix(of name: String) -> String { ".\(name).tmp-" }

    /// Replaces `name` in `directory` with `contents`; the file gets `mode` (before the umask).
    public static func replace(_ contents: [UInt8], named name: String, in directory: String, mode: mode_t = 0o644) throws(FileStepError) {
        let final = "\(directory)/\(name)"
        let temp = "\(directory)/\(temporaryPrefix(of: name))\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileStepError(path: temp, step: "cannot create") }
        var failure: FileStepError?
        var offset = 0
        while offset < contents.count {
            let written = contents.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = FileStepError(path: temp, step: "cannot write")
                break
            }
            offset += written
        }
        if failure == nil && fsync(fd) != 0 { failure = FileStepError(path: temp, step: "fsync failed") }
        close(fd)
        if failure == nil && rename(temp, final) != 0 { failure = FileStepError(path: final, step: "cannot rename into place") }
        if let failure {
            unlink(temp)
            throw failure
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw FileStepError(path: directory, step: "cannot open directory") }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw FileStepError(path: directory, step: "fsync failed") }
    }
}

/// A file system step that failed: the path, the step, and the system's reason.
public struct FileStepError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var step: String
    public var errorNumber: Int32

    /// `errorNumber` defaults to the `errno` the failed call left.
    public init(path: String, step: String, errorNumber: Int32 = errno) {
        self.path = path
        self.step = step
        self.errorNumber = errorNumber
    }

    public var description: String { "\(path): \(step): \(String(cString: strerror(errorNumber)))" }
}
