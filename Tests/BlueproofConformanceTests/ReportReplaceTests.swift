import BlueproofAsync
import BlueproofConformance
import Foundation
import Synchronization
import Testing

/// Reports are replaced atomically: a reader, or a run killed at any moment, finds the old
/// report or the new one, never none (the old writer removed the file before moving the new
/// one in).
@Suite("Report replacement")
struct ReportReplaceTests {
    @Test("while a run rewrites its report, a reader on another thread always finds a whole report.json; no temporary file stays")
    func readerNeverMissesTheReport() async throws {
        let folder = try Fixtures.folder("report-replace")
        let writer = try ReportWriter(folder: folder)
        var report = try ReportTests.sample()
        try writer.write(report)
        let done = Atomic(false)
        let reads = Atomic(0), missing = Atomic(0), torn = Atomic(0)
        let finished = OneShot<Bool>()
        // A thread of its own, so that the reader runs whatever the test pool is doing.
        Thread.detachNewThread {
            while !done.load(ordering: .acquiring) {
                if let data = FileManager.default.contents(atPath: "\(folder)/report.json") {
                    if (try? JSONSerialization.jsonObject(with: data)) == nil { torn.add(1, ordering: .relaxed) }
                } else {
                    missing.add(1, ordering: .relaxed)
                }
                reads.add(1, ordering: .relaxed)
            }
            finished.resolve(true)
        }
        // At least 100 rewrites, and on until the reader has overlapped them 100 times.
        var round = 0
        while round < 100 || (reads.load(ordering: .relaxed) < 100 && round < 100_000) {
            report.runID = "round-\(round)"
            try writer.write(report)
            round += 1
        }
        done.store(true, ordering: .releasing)
        _ = await finished.wait()
        let (total, gone, partial) = (reads.load(ordering: .relaxed), missing.load(ordering: .relaxed), torn.load(ordering: .relaxed))
        #expect(total >= 100)
        #expect(gone == 0, "report.json was missing in \(gone) of \(total) reads")
        #expect(partial == 0, "report.json was torn in \(partial) of \(total) reads")
        #expect(try ReportWriter.read(folder: folder).runID == "round-\(round - 1)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ReportWriter.files.sorted())
    }
}
