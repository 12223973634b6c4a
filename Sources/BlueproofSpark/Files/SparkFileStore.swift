#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the core reads files it sends and writes files it receives: injected, so the core
/// does no I/O of its own (docs/spark-wire.md "Files"). `DiskFileSource` and
/// `CacheFolderSink` are the reference implementations.
public protocol SparkFileSource: Sendable {
    /// The file's size now; fails if it is not there.
    func size(of path: String) throws(SparkFileFailure) -> UInt64
    /// Up to `count` bytes at `offset`; fewer than asked means the file shrank.
    func read(_ path: String, at offset: UInt64, count: Int) throws(SparkFileFailure) -> [UInt8]
}

/// Where received files go: written as they arrive to a temporary file, then made visible
/// under their name in one rename, or removed.
public protocol SparkFileSink: Sendable {
    func begin(name: String) throws(SparkFileFailure) -> SparkSinkHandle
    func append(_ bytes: [UInt8], to handle: SparkSinkHandle) throws(SparkFileFailure)
    /// Makes the file whole and visible; returns its path.
    func commit(_ handle: SparkSinkHandle) throws(SparkFileFailure) -> String
    /// Removes the temporary file; a partial file is never left under its name.
    func discard(_ handle: SparkSinkHandle)
}

/// One file being received.
public struct SparkSinkHandle: Hashable, Sendable {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }
}

/// A file step that failed: the path and what went wrong.
public struct SparkFileFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}

extension SparkFileFailure {
    /// How the reason of a read that failed on a path that opened begins: the file is there
    /// (a folder in its place), its bytes are not.
    public static let readStep = "cannot read"

    /// A system call's failure: the step and the reason `errno` gives.
    static func system(_ path: String, _ step: String) -> SparkFileFailure {
        SparkFileFailure(path: path, reason: "\(step): \(String(cString: strerror(errno)))")
    }
}
