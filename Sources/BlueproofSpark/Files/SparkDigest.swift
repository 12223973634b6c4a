import BlueproofWire
import Crypto
import Foundation

/// SHA-256 as `blueproof spark` prints it, of bytes or of a file read in pieces.
public struct SparkDigest {
    private var hasher = SHA256()

    public init() {}

    public mutating func update(_ bytes: [UInt8]) { hasher.update(data: bytes) }

    /// 64 lower-case hex digits.
    public func hex() -> String { BlueproofWire.hex(Array(hasher.finalize())) }

    public static func hex(of bytes: [UInt8]) -> String { BlueproofWire.hex(sha256(of: bytes)) }

    /// The 32-byte SHA-256 of `bytes`, as a transfer header carries it.
    public static func sha256(of bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    /// The file's digest and size, read 1 MiB at a time.
    public static func file(_ path: String) throws(SparkFileFailure) -> (sha256: String, bytes: UInt64) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw SparkFileFailure(path: path, reason: "cannot open") }
        defer { try? handle.close() }
        var digest = SparkDigest()
        var size: UInt64 = 0
        while true {
            let piece: Data
            do { piece = try handle.read(upToCount: 1 << 20) ?? Data() } catch { throw SparkFileFailure(path: path, reason: "cannot read: \(error)") }
            if piece.isEmpty { break }
            digest.update(Array(piece))
            size += UInt64(piece.count)
        }
        return (digest.hex(), size)
    }
}
