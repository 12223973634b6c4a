#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The file-backed session store.
///
/// The session lives in `session.json` (see `SessionFile`) in `directory`, beside a lock file
/// `session.lock`. Files are 0600, a directory the store creates is 0700, and every write is
/// atomic and durable (`DurableFiles.writeAtomically`): `kill -9` at any moment leaves the old
/// or the new file. Every instance and process using the same directory shares the session;
/// `update`, `loadOrCreate` and `destroy` hold an exclusive `flock` around read-modify-write.
/// A corrupt session is reported, never replaced.
///
/// Source: bridgefy-ios-sdk-readme.md, "Session" (persistent, the same for all instances,
/// destroyed only explicitly).
public struct SessionStore: Sendable {
    public let directory: URL
    /// Makes the identity of a new session (`TransmitterIdentity.generate` unless given).
    private let makeIdentity: @Sendable () throws(TransmitterError) -> TransmitterIdentity

    static let sessionFileName = "session.json"
    static let lockFileName = "session.lock"

    public init(directory: URL) {
        self.directory = directory
        self.makeIdentity = { () throws(TransmitterError) in try TransmitterIdentity.generate() }
    }

    /// A store whose new sessions take their identity from `makeIdentity` (simulations use
    /// `SimulatedIdentities` to skip RSA key generation); everything else is as above.
    public init(directory: URL, makeIdentity: @escaping @Sendable () throws(TransmitterError) -> TransmitterIdentity) {
        self.directory = directory
        self.makeIdentity = makeIdentity
    }

    /// `$XDG_DATA_HOME/blueproof/transmitter`, else `$HOME/.local/share/blueproof/transmitter`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("blueproof/transmitter", isDirectory: true)
    }

    var sessionPath: String { directory.appendingPathComponent(Self.sessionFileName).path }
    var lockPath: String { directory.appendingPathComponent(Self.lockFileName).path }

    /// Whether a session file exists (it may still be corrupt; `load` says).
    public var exists: Bool { FileManager.default.fileExists(atPath: sessionPath) }

    /// The stored session; nil if there is none. A file that cannot be read or decoded gives
    /// `.sessionError` with the path and the reason, and is left as it is.
    public func load() throws(TransmitterError) -> SessionRecord? {
        guard let bytes = try DurableFiles.readWhole(sessionPath) else { return nil }
        do {
            return try SessionFile.decode(bytes)
        } catch {
            throw .sessionError.with(detail: "\(sessionPath): \(error.reason)")
        }
    }

    /// The stored session, or a new one with a fresh identity if there is none.
    public func loadOrCreate() throws(TransmitterError) -> SessionRecord {
        if let record = try load() { return record }
        return try locked { () throws(TransmitterError) in try loadOrCreateLocked() }
    }

    /// Reads the session (creating it if missing), applies `change`, writes it back, all under
    /// the lock; returns the record written. If `change` throws nothing is written.
    public func update(_ change: (inout SessionRecord) throws(TransmitterError) -> Void) throws(TransmitterError) -> SessionRecord {
        try locked { () throws(TransmitterError) in
            var record = try loadOrCreateLocked()
            let before = record
            try change(&record)
            if record != before { try write(record) }
            return record
        }
    }

    /// Removes the session; the next `loadOrCreate` makes a new identity. Named files stay.
    public func destroy() throws(TransmitterError) {
        try locked { () throws(TransmitterError) in
            if unlink(sessionPath) != 0 && errno != ENOENT {
                throw .sessionError.with(detail: "\(sessionPath): cannot remove: \(DurableFiles.errnoText())")
            }
        }
    }

    /// Writes an extra named file beside the session (e.g. "mesh-state"), atomically, mode 0600.
    /// Names are letters, digits, '-', '_' and '.', not starting with '.', and not the store's own.
    public func writeFile(named name: String, contents: [UInt8]) throws(TransmitterError) {
        try Self.checkName(name)
        try DurableFiles.ensureDirectory(directory)
        try DurableFiles.writeAtomically(contents, named: name, in: directory)
    }

    /// Reads an extra named file; nil if it does not exist.
    public func readFile(named name: String) throws(TransmitterError) -> [UInt8]? {
        try Self.checkName(name)
        return try DurableFiles.readWhole(directory.appendingPathComponent(name).path)
    }

    // MARK: - Internals

    private func locked<T>(_ body: () throws(TransmitterError) -> T) throws(TransmitterError) -> T {
        try DurableFiles.ensureDirectory(directory)
        return try DurableFiles.withExclusiveLock(lockPath, body)
    }

    /// Call with the lock held.
    private func loadOrCreateLocked() throws(TransmitterError) -> SessionRecord {
        if let record = try load() { return record }
        let record = SessionRecord(identity: try makeIdentity())
        try write(record)
        return record
    }

    /// Call with the lock held. Temporary session files left by a killed writer are removed
    /// first: only a lock holder writes one, so any present now is stale.
    private func write(_ record: SessionRecord) throws(TransmitterError) {
        DurableFiles.removeTemporaryFiles(of: Self.sessionFileName, in: directory)
        try DurableFiles.writeAtomically(try SessionFile(record).encoded(), named: Self.sessionFileName, in: directory)
    }

    static func checkName(_ name: String) throws(TransmitterError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard !name.isEmpty, name.count <= 128, !name.hasPrefix("."), name.allSatisfy(allowed.contains),
              name != sessionFileName, name != lockFileName else {
            throw .sessionError.with(detail: "not a usable file name: \(name)")
        }
    }
}
