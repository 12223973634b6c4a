import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes received files into a cache folder ("Files will be saved in the cache directory"),
/// atomically as `AtomicFile` does: chunks go to a hidden temporary file, which is fsynced and
/// renamed over `name` only when complete and verified, then the folder is fsynced. A partial
/// file is never visible under its name.
public final class CacheFolderSink: SparkFileSink {
    private struct Open {
        var fd: Int32
        var temporary: String
        var name: String
    }

    public let directory: String
    private let files = Mutex<(next: UInt64, open: [UInt64: Open])>((1, [:]))

    /// How the temporary files' names start: then the process and a random number, never the
    /// file's own name, so a name of the wire's 255 bytes (the most file systems take) still fits.
    public static let temporaryPrefix = ".spark-partial-"

    public init(directory: String) { self.directory = directory }

    public func begin(name: String) throws(SparkFileFailure) -> SparkSinkHandle {
        let temporary = "\(directory)/\(Self.temporaryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SparkFileFailure.system(temporary, "cannot create") }
        return files.withLock { state in
            defer { state.next += 1 }
            state.open[state.next] = Open(fd: fd, temporary: temporary, name: name)
            return SparkSinkHandle(state.next)
        }
    }

    public func append(_ bytes: [UInt8], to handle: SparkSinkHandle) throws(SparkFileFailure) {
        guard let file = files.withLock({ $0.open[handle.value] }) else { throw SparkFileFailure(path: directory, reason: "no open file \(handle.value)") }
        var written = 0
        while written < bytes.count {
            let step = bytes.withUnsafeBytes { buffer in write(file.fd, buffer.baseAddress.map { $0 + written }, buffer.count - written) }
            if step < 0 && errno == EINTR { continue }
            guard step > 0 else { throw SparkFileFailure.system(file.temporary, "cannot write") }
            written += step
        }
    }

    public func commit(_ handle: SparkSinkHandle) throws(SparkFileFailure) -> String {
        guard let file = files.withLock({ $0.open.removeValue(forKey: handle.value) }) else {
            throw SparkFileFailure(path: directory, reason: "no open file \(handle.value)")
        }
        let final = "\(directory)/\(file.name)"
        if fsync(file.fd) != 0 {
            let error = SparkFileFailure.system(file.temporary, "fsync failed")
            close(file.fd)
            throw removing(file, error)
        }
        close(file.fd)
        guard rename(file.temporary, final) == 0 else { throw removing(file, SparkFileFailure.system(final, "cannot rename into place")) }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw SparkFileFailure.system(directory, "cannot open folder") }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw SparkFileFailure.system(directory, "fsync failed") }
        return final
    }

    public func discard(_ handle: SparkSinkHandle) {
        guard let file = files.withLock({ $0.open.removeValue(forKey: handle.value) }) else { return }
        close(file.fd)
        unlink(file.temporary)
    }

    private func removing(_ file: Open, _ error: SparkFileFailure) -> SparkFileFailure {
        unlink(file.temporary)
        return error
    }

}
