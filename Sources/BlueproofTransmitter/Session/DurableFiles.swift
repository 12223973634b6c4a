#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BlueproofFiles
import Foundation

/// POSIX file steps the session store needs: owner-only directory, whole-file read, atomic
/// durable replace, and an exclusive `flock` around a critical section.
enum DurableFiles {
    /// The text of the current `errno`.
    static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// Creates `directory` (and its parents) if missing; a directory this creates has mode 0700.
    static func ensureDirectory(_ directory: URL) throws(TransmitterError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .sessionError.with(detail: "\(path): exists and is not a directory")
            }
            return
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path != path { try ensureDirectory(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .sessionError.with(detail: "\(path): cannot create directory: \(errnoText())")
        }
    }

    /// The whole file, or nil if it does not exist.
    static func readWhole(_ path: String) throws(TransmitterError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .sessionError.with(detail: "\(path): cannot open: \(errnoText())")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .sessionError.with(detail: "\(path): cannot read: \(errnoText())")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// The prefix of the temporary files `writeAtomically` makes for `name`.
    static func temporaryPrefix(of name: String) -> String { AtomicFile.temporaryPrefix(of: name) }

    /// Removes temporary files of `name` that a killed writer left (best effort).
    static func removeTemporaryFiles(of name: String, in directory: URL) {
        let prefix = temporaryPrefix(of: name)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for stale in names where stale.hasPrefix(prefix) {
            unlink(directory.appendingPathComponent(stale).path)
        }
    }

    /// Replaces `name` in `directory` with `contents` (mode 0600) so that a crash at any moment
    /// leaves the old file or the new one (``AtomicFile``).
    static func writeAtomically(_ contents: [UInt8], named name: String, in directory: URL) throws(TransmitterError) {
        do {
            try AtomicFile.replace(contents, named: name, in: directory.path, mode: 0o600)
        } catch {
            throw .sessionError.with(detail: "\(error)")
        }
    }

    /// Runs `body` holding an exclusive `flock` on `lockPath` (created 0600 if missing). The lock
    /// belongs to the open file description, so it excludes other processes and other callers in
    /// this process alike; the kernel drops it if the process dies.
    static func withExclusiveLock<T>(_ lockPath: String, _ body: () throws(TransmitterError) -> T) throws(TransmitterError) -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .sessionError.with(detail: "\(lockPath): cannot open lock: \(errnoText())") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .sessionError.with(detail: "\(lockPath): cannot lock: \(errnoText())") }
        }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }
}
