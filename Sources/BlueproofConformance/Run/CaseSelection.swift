#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--filter GLOB`: shell globs on case ids (`CBT/GATE/*`, `*/BI-*`); `*` also matches `/`.
public struct CaseFilter: Hashable, Sendable {
    public var globs: [String]

    public init(_ globs: [String]) { self.globs = globs }

    public func matches(_ id: CaseID) -> Bool {
        globs.isEmpty || globs.contains { fnmatch($0, id.rawValue, 0) == 0 }
    }
}

/// `--shard K/N`: a stable 1/N of the cases. A case belongs to shard `FNV-1a(id) % N + 1`, a
/// hash of its id's UTF-8 bytes that, unlike Swift's `Hasher`, is the same in every process.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1, (1...count).contains(index) else { throw ShardError(text: "\(index)/\(count)") }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { throw ShardError(text: text) }
        try self.init(index: index, count: count)
    }

    public func contains(_ id: CaseID) -> Bool { Int(Self.fnv1a(id.rawValue) % UInt64(count)) + 1 == index }

    /// 64-bit FNV-1a.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    public var description: String { "\(index)/\(count)" }
}

public struct ShardError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var description: String { "--shard: expected K/N with 1 ≤ K ≤ N, got \(text)" }
}
