import BlueproofYAML
import Foundation
import Yams

/// Conformance/catalogue.yaml, read with Yams: the groups and their cases, in file order.
public struct Catalogue: Sendable {
    public struct Group: Hashable, Sendable, Codable {
        public var code: String
        public var title: String
        public var cases: [CatalogueEntry]
    }

    private struct File: Decodable {
        var version: Int
        var groups: [Group]
    }

    public var version: Int
    public var groups: [Group]

    /// Every case, in file order.
    public var entries: [CatalogueEntry] { groups.flatMap(\.cases) }

    public func entry(_ id: CaseID) -> CatalogueEntry? { entries.first { $0.id == id } }

    public init(yaml: String, file: String = "catalogue.yaml") throws(ConformanceFileError) {
        do {
            let decoded = try YAMLDecoder().decode(File.self, from: yaml)
            version = decoded.version
            groups = decoded.groups
        } catch {
            throw ConformanceFileError(file: file, line: nil, reason: "not a catalogue: \(error)")
        }
    }

    public static func load(path: String) throws(ConformanceFileError) -> Catalogue {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConformanceFileError(file: path, line: nil, reason: "cannot read the file")
        }
        return try Catalogue(yaml: text, file: path)
    }
}

/// A catalogue or profile file that cannot be used: `file:line: reason`.
public struct ConformanceFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; nil when the problem is the whole file.
    public var line: Int?
    public var reason: String

    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`; characters quoted from the file that could drive a terminal are escaped.
    public var description: String {
        PrintableText.escape(line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)")
    }
}
