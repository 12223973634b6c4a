import BlueproofFiles
import Foundation

/// Writes the four report files of a run into one folder: `report.json`, `junit.xml`,
/// `report.html`, `summary.md`. Each file replaces the last one atomically and durably
/// (``AtomicFile``): a reader, or a run killed at any moment, finds the old report or the new
/// one, never half of one and never none.
public struct ReportWriter: Sendable {
    public let folder: String

    public static let files = ["report.json", "junit.xml", "report.html", "summary.md"]

    public init(folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Writes every file, or all but `report.html` (the largest by far: rebuilt after every case
    /// of a long run it made the run's own cost grow with the square of its cases).
    public func write(_ report: RunReport, html: Bool = true) throws {
        try put("report.json", Self.json(report))
        try put("junit.xml", Data(JUnitReport.xml(report).utf8))
        if html { try put("report.html", Data(HTMLReport.html(report, reportFolder: folder).utf8)) }
        try put("summary.md", Data(MarkdownSummary.markdown(report).utf8))
    }

    public static func json(_ report: RunReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(report)
    }

    /// The report folders `path` holds: itself when it has a report.json, else each of its
    /// subfolders that has one (the `--output` folder of `blueproof run` holds one per run), by
    /// name.
    public static func reportFolders(in path: String) throws(ReportError) -> [String] {
        let manager = FileManager.default
        if manager.fileExists(atPath: "\(path)/report.json") { return [path] }
        guard let names = try? manager.contentsOfDirectory(atPath: path) else {
            throw .unreadable(path: path, reason: "no such folder")
        }
        let folders = names.sorted().map { "\(path)/\($0)" }.filter { manager.fileExists(atPath: "\($0)/report.json") }
        guard !folders.isEmpty else { throw .noReports(folder: path) }
        return folders
    }

    public static func read(folder: String) throws(ReportError) -> RunReport {
        let path = "\(folder)/report.json"
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, reason: "no such file") }
        struct Versioned: Decodable { var schemaVersion: Int }
        let version: Int
        do {
            version = try JSONDecoder().decode(Versioned.self, from: data).schemaVersion
        } catch {
            throw .unreadable(path: path, reason: "no schemaVersion: \(error)")
        }
        guard version == RunReport.currentSchemaVersion else {
            throw .schemaVersion(path: path, found: version, expected: RunReport.currentSchemaVersion)
        }
        do {
            return try JSONDecoder().decode(RunReport.self, from: data)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    private func put(_ name: String, _ data: Data) throws(FileStepError) {
        try AtomicFile.replace([UInt8](data), named: name, in: folder)
    }
}

/// A report folder that cannot be read or merged.
public enum ReportError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case schemaVersion(path: String, found: Int, expected: Int)
    case nothingToMerge
    case duplicateCase(id: String, repetition: Int, first: String, second: String)
    case noReports(folder: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): \(reason)"
        case let .schemaVersion(path, found, expected): "\(path): schema version \(found); this blueproof reads version \(expected) only"
        case .nothingToMerge: "no report to merge"
        case let .duplicateCase(id, repetition, first, second):
            "\(id)\(repetition > 1 ? " #\(repetition)" : "") is in both \(first) and \(second): "
                + "a case judged twice would count twice; merge each shard once"
        case let .noReports(folder):
            "\(folder): no report.json in it or in its run folders (give a report folder, or the --output folder of blueproof run)"
        }
    }
}
