@testable import BlueproofConformance
import BlueproofAsync
import Foundation
import Testing

/// The run's reports are written off the runner's loop (docs/runner.md, step 6): every posted
/// report reaches the folder, or one posted after it does; `finish` writes the last one whole.
@Suite("Report updates")
struct ReportUpdatesTests {
    @Test("a posted report reaches the folder without finish; finish writes the final report, every file, after all that was posted")
    func postedThenFinished() async throws {
        let folder = try Fixtures.folder("report-updates")
        let writer = try ReportWriter(folder: folder)
        let updates = ReportUpdates(writer: writer, htmlInterval: .seconds(3600))
        var report = try ReportTests.sample()
        report.runID = "posted"
        updates.post(report)
        try await withTimeout(.seconds(10), what: "the report queue to write the posted report") { await updates.settled() }
        #expect(try ReportWriter.read(folder: folder).runID == "posted")
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/report.html"), "report.html waits for its interval")
        for round in 0..<200 {
            report.runID = "round-\(round)"
            updates.post(report)
        }
        report.runID = "final"
        try await updates.finish(report)
        #expect(try ReportWriter.read(folder: folder).runID == "final", "no posted report was written after the final one")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ReportWriter.files.sorted())
        let html = try String(contentsOfFile: "\(folder)/report.html", encoding: .utf8)
        #expect(html.contains("final"))
    }
}
