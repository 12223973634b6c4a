import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// `blueproof run` when its reader leaves and when it ends: a closed standard output ends the
/// output, never the run or the tool with a trap; the run's work folder goes unless kept.
extension Integration {
    @Suite("blueproof run: closed output and work folder")
    struct RunOutputTests {
        /// Runs blueproof with a standard output whose reader has already gone (a pipe with its
        /// read end closed: every write gives EPIPE, as after `| head -1` quits); returns the
        /// exit status and standard error.
        static func withReaderGone(_ cli: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0, "pipe: errno \(errno)")
            close(ends[0])
            let output = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let errors = FileManager.default.temporaryDirectory.appendingPathComponent("bp-gone-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: errors) }
            let errorHandle = try FileHandle(forWritingTo: errors)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: cli)
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = errorHandle
            try process.run()
            process.waitUntilExit()
            try? output.close()
            try? errorHandle.close()
            return (process.terminationStatus, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        }

        @Test("run --list into a gone reader: exit 141 as a pipe-closed command does, nothing on standard error",
              .requires(.cli))
        func listIntoGoneReader() throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let result = try Self.withReaderGone(cli, ["run", "--list"])
            #expect(result.status == 141, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }

        @Test("btvirt: run into a gone reader still runs every case and writes the whole report; the work folder is removed, or kept with --keep-work",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func runIntoHead() throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("run-head")
            defer { folder.cleanUp() }
            let cases = ["--filter", "BFT/OPT/BI-22", "--filter", "BFT/DLV/BV-01", "--filter", "BFT/OPT/BI-24"]
            let result = try Self.withReaderGone(cli, ["run", "--output", folder.file("Reports"), "--captures", folder.file("Captures")] + cases)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("backtrace"), "\(result.stderr)")
            let runID = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.file("Reports")).first)
            let report = try ReportWriter.read(folder: folder.file("Reports/\(runID)"))
            #expect(report.cases.count == 3 && report.endedAt != nil)
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("bp-run-\(runID)").path
            #expect(!FileManager.default.fileExists(atPath: work), "\(work) left behind")

            let kept = try run(cli, ["run", "--keep-work", "--filter", "BFT/OPT/BI-22",
                                     "--output", folder.file("Kept"), "--captures", folder.file("Captures")])
            #expect(kept.status == 0, "\(kept.stderr)")
            let keptID = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.file("Kept")).first)
            let keptWork = FileManager.default.temporaryDirectory.appendingPathComponent("bp-run-\(keptID)").path
            #expect(FileManager.default.fileExists(atPath: keptWork))
            #expect(kept.stderr.contains("work folder kept"), "\(kept.stderr)")
            try? FileManager.default.removeItem(atPath: keptWork)
        }
    }
}
