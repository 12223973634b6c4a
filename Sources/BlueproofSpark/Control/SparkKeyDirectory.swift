import BlueproofFiles
import BlueproofWire
import Foundation

/// The keys of the Spark nodes on one machine, in one file: the stand-in `blueproof spark`
/// uses for the cloud that synchronizes keys before a connection ("readUserKey", "Starting A
/// Data Connection"). A node publishes its key id when it starts; a node reads a peer's when
/// the peer's `hello` names it. One line per node, `<registration id> <key id as 64 hex digits>`,
/// written whole by a rename; the file is untrusted input, read within ``maxBytes`` and
/// ``maxEntries``.
public struct SparkKeyDirectory: Sendable {
    /// The most the file may hold.
    public static let maxBytes = 512 << 10
    /// The most nodes it keeps: publishing past this forgets the oldest.
    public static let maxEntries = 4096

    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_DATA_HOME/blueproof/spark-keys`, else `$HOME/.local/share/blueproof/spark-keys`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/blueproof/spark-keys"
    }

    /// The key id on record for `registrationID`, the last line naming it; nil when none.
    public func key(for registrationID: UInt64) throws(SparkKeyDirectoryError) -> [UInt8]? {
        try entries().last { $0.id == registrationID }?.key
    }

    /// Records `key` for `registrationID`, replacing the node's earlier line.
    public func publish(_ key: [UInt8], for registrationID: UInt64) throws(SparkKeyDirectoryError) {
        guard key.count == 32 else { throw .badKey(bytes: key.count) }
        var kept = try entries().filter { $0.id != registrationID }
        kept.append((registrationID, key))
        let text = kept.suffix(Self.maxEntries).map { "\($0.id) \(hex($0.key))\n" }.joined()
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .unreadable(path: folder, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        do {
            try AtomicFile.replace(Array(text.utf8), named: (path as NSString).lastPathComponent, in: folder, mode: 0o600)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Every line, in file order; an absent file is empty.
    func entries() throws(SparkKeyDirectoryError) -> [(id: UInt64, key: [UInt8])] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw .unreadable(path: path, reason: "cannot open it") }
            return []
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: Self.maxBytes + 1) ?? Data() } catch { throw .unreadable(path: path, reason: "\(error)") }
        guard data.count <= Self.maxBytes else { throw .tooLarge(path: path, limit: Self.maxBytes) }
        var found: [(id: UInt64, key: [UInt8])] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let id = UInt64(fields[0]), let key = bytes(fromHex: String(fields[1])), key.count == 32 else {
                throw .malformed(path: path, line: index + 1)
            }
            guard found.count < Self.maxEntries else { throw .tooManyEntries(path: path, limit: Self.maxEntries) }
            found.append((id, key))
        }
        return found
    }
}

/// Why the key directory could not be read or written.
public enum SparkKeyDirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Larger than ``SparkKeyDirectory/maxBytes``.
    case tooLarge(path: String, limit: Int)
    /// More lines than ``SparkKeyDirectory/maxEntries``.
    case tooManyEntries(path: String, limit: Int)
    /// A line that is not `<registration id> <64 hex digits>`.
    case malformed(path: String, line: Int)
    /// A key id is 32 bytes.
    case badKey(bytes: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "the Spark key directory \(path): \(reason)"
        case .tooLarge(let path, let limit): "the Spark key directory \(path) is over \(limit) bytes"
        case .tooManyEntries(let path, let limit): "the Spark key directory \(path) has more than \(limit) lines"
        case .malformed(let path, let line): "the Spark key directory \(path), line \(line): not \"<registration id> <key id, 64 hex digits>\""
        case .badKey(let bytes): "a Spark key id is 32 bytes, not \(bytes)"
        }
    }
}
