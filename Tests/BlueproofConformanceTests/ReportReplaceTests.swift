import BlueproofConformance
import Foundation
import Synchronization
import Testing

/// Reports are replaced atomically: a reader, or a run killed at any moment, finds the old
/// report or the new one, never none (the old writer removed the file before moving the new
/// one in).
@Suite("Report replacement")
struct ReportReplaceTests {
    @Test("while a run rewrites its report 100 times, a reader always finds a whole report.json; no temporary file stays")
    func readerNeverMissesTheReport() async throws {
        let folder = try Fixtures.folder("report-replace")
        let writer = try ReportWriter(folder: folder)
        var report = try ReportTests.sample()
        try writer.write(report)
        let done = Atomic(false)
        let reader = Task.detached {
            var reads = 0, missing = 0, torn = 0
            while !done.load(ordering: .acquiring) {
                reads += 1
                guard let data = FileManager.default.contents(atPath: "\(folder)/report.json") else { missing += 1; continue }
                if (try? JSONSerialization.jsonObject(with: data)) == nil { torn += 1 }
            }
            return (reads, missing, torn)
        }
        for round in 0..<100 {
            report.runID = "round-\(round)"
            try writer.write(report)
        }
        done.store(true, ordering: .releasing)
        let (reads, missing, torn) = await reader.value
        #expect(reads > 0)
        #expect(missing == 0, "report.json was missing in \(missing) of \(reads) reads")
        #expect(torn == 0, "report.json was torn in \(torn) of \(reads) reads")
        #expect(try ReportWriter.read(folder: folder).runID == "round-99")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ReportWriter.files.sorted())
    }
}
