import Foundation

/// The folders of one Spark node in a case: `cache` for the files it receives ("saved in the
/// cache directory"), `files` for the files it sends, both made under `root`.
public struct SparkNodeFolders: Sendable {
    public let root: String
    public let cache: String
    public let files: String

    public init(root: String) throws {
        self.root = root
        cache = root + "/cache"
        files = root + "/files"
        for path in [cache, files] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    }

    /// A fresh random key id (32 bytes) for a node of a case.
    public static func randomKeyID() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255) } }
}
