import BlueproofFiles
import BlueproofWire
import Foundation

/// The keys of the Spark nodes on one machine: the stand-in `blueproof spark` uses for the
/// cloud that synchronizes keys before a connection ("readUserKey", "Starting A Data
/// Connection"). A folder with one file per node, named by its registration id and holding
/// its key id as 64 hex digits: a node publishes its own when it starts (written whole by a
/// rename, so two nodes starting together lose nothing) and withdraws it when it stops; it
/// reads a peer's when the peer's `hello` names it. The files are untrusted input, each read
/// within ``maxFileBytes``.
public struct SparkKeyDirectory: Sendable {
    /// The most one key file may hold: 64 hex digits and a newline, with room to spare.
    public static let maxFileBytes = 128

    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_DATA_HOME/blueproof/spark-keys`, else `$HOME/.local/share/blueproof/spark-keys`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/blueproof/spark-keys"
    }

    func file(_ registrationID: UInt64) -> String { "\(path)/\(registrationID)" }

    /// The key id published for `registrationID`; nil when none is.
    public func key(for registrationID: UInt64) throws(SparkKeyDirectoryError) -> [UInt8]? {
        let file = file(registrationID)
        guard let handle = FileHandle(forReadingAtPath: file) else {
            if FileManager.default.fileExists(atPath: file) { throw .unreadable(path: file, reason: "cannot open it") }
            return nil
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: Self.maxFileBytes + 1) ?? Data() } catch { throw .unreadable(path: file, reason: "\(error)") }
        guard data.count <= Self.maxFileBytes else { throw .tooLarge(path: file, limit: Self.maxFileBytes) }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64, let key = bytes(fromHex: text), key.count == 32 else { throw .malformed(path: file) }
        return key
    }

    /// Publishes `key` for `registrationID`, replacing what was there.
    public func publish(_ key: [UInt8], for registrationID: UInt64) throws(SparkKeyDirectoryError) {
        guard key.count == 32 else { throw .badKey(bytes: key.count) }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .unreadable(path: path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        do {
            try AtomicFile.replace(Array((hex(key) + "\n").utf8), named: "\(registrationID)", in: path, mode: 0o600)
        } catch {
            throw .unreadable(path: file(registrationID), reason: "\(error)")
        }
    }

    /// Removes `registrationID`'s key, when the node stops.
    public func withdraw(_ registrationID: UInt64) { try? FileManager.default.removeItem(atPath: file(registrationID)) }
}

/// Why a key could not be read or published.
public enum SparkKeyDirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// A key file larger than ``SparkKeyDirectory/maxFileBytes``.
    case tooLarge(path: String, limit: Int)
    /// A key file that is not 64 hex digits.
    case malformed(path: String)
    /// A key id is 32 bytes.
    case badKey(bytes: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "the Spark key file \(path): \(reason)"
        case .tooLarge(let path, let limit): "the Spark key file \(path) is over \(limit) bytes"
        case .malformed(let path): "the Spark key file \(path) is not a key id of 64 hex digits"
        case .badKey(let bytes): "a Spark key id is 32 bytes, not \(bytes)"
        }
    }
}
