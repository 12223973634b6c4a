import BlueproofConformance
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Reports")
struct ReportTests {
    /// A report with one case of every verdict, and text that needs escaping.
    static func sample(runID: String = "20261122-140000-abcd", captures: [String] = []) throws -> RunReport {
        let catalogue = try Fixtures.catalogue()
        var report = RunReport(runID: runID, startedAt: Date(timeIntervalSince1970: 1_800_000_000),
                               profile: .init(name: "bridgefy-ios", path: "Conformance/profiles/bridgefy-ios.yaml"),
                               controller: "btvirt")
        let outcomes: [(String, CaseOutcome)] = [
            ("CBT/CHUNK/BV-01", .pass("3 chunks of 182 bytes")),
            ("CBT/CHUNK/BV-02", .fail("no <EOM> & \"marker\"", findings: [Finding("last notifications", capture: "Captures/x/node0.pcap", frames: [17, 18])])),
            ("CBT/GATE/BI-01", .inconclusive("no advertiser was heard")),
            ("CBT/GATE/BI-02", .notApplicable("the profile lets it pass")),
            ("CBT/ROLE/BV-01", .error("the controller died mid-case: btvirt exited")),
        ]
        for (id, outcome) in outcomes {
            let entry = try #require(catalogue.entry(CaseID(id)))
            report.cases.append(CaseResult(entry: entry, outcome: outcome, duration: .milliseconds(1500),
                                           captures: captures, log: ["[  0.001] opened", "[  1.000] \u{1} control byte"]))
        }
        report.endedAt = RunReport.timestamp(Date(timeIntervalSince1970: 1_800_000_010))
        return report
    }

    @Test("report.json round-trips, with its schema version and every field")
    func jsonRoundTrip() throws {
        let report = try Self.sample()
        let data = try ReportWriter.json(report)
        let decoded = try JSONDecoder().decode(RunReport.self, from: data)
        #expect(decoded == report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        let cases = try #require(object["cases"] as? [[String: Any]])
        #expect(cases.map { $0["verdict"] as? String } == ["pass", "fail", "inconclusive", "not-applicable", "error"])
        let failed = cases[1]
        #expect(failed["id"] as? String == "CBT/CHUNK/BV-02")
        let findings = try #require(failed["findings"] as? [[String: Any]])
        #expect(findings.first?["frames"] as? [Int] == [17, 18])
        #expect((failed["citation"] as? [String: String])?["document"] == "corebluetooth-transfer-sample.md")
        #expect(report.summaryLine == "5 cases: 1 pass, 1 fail, 1 inconclusive, 1 not-applicable, 1 error: FAILED")
        #expect(report.failed)
    }

    /// docs/runner.md, "Verdict policy": exit 0 only for a run that passed; an inconclusive
    /// case, or a run that judged nothing, is exit 4 and says so on the summary line.
    @Test("a run passes only when something passed and nothing failed, erred or stayed unjudged",
          arguments: [
              (["pass", "not-applicable"], RunResult.passed, "PASSED"),
              (["pass", "error"], .failed, "FAILED"),
              (["pass", "fail", "inconclusive"], .failed, "FAILED"),
              (["pass", "inconclusive"], .unjudged, "NOT PASSED: 1 case unjudged (inconclusive)"),
              (["not-applicable", "not-applicable"], .unjudged, "NOT PASSED: no case was judged"),
              ([], .unjudged, "NOT PASSED: no case was judged"),
          ])
    func runResult(verdicts: [String], result: RunResult, ending: String) throws {
        let catalogue = try Fixtures.catalogue()
        var report = RunReport(runID: "r", startedAt: Date(), profile: .init(name: "p", path: "p"), controller: "btvirt")
        for (index, name) in verdicts.enumerated() {
            let verdict = try #require(Verdict(rawValue: name))
            report.cases.append(CaseResult(entry: catalogue.entries[index], outcome: CaseOutcome(verdict, "why"), duration: .seconds(1),
                                           captures: [], log: []))
        }
        #expect(report.result == result)
        #expect(report.summaryLine.contains(": \(ending)"), "\(report.summaryLine)")
        #expect(report.result.exitStatus == (result == .passed ? 0 : result == .failed ? 1 : 4))
    }

    @Test("junit.xml is well-formed: names, classes, failure with capture and frames, skipped, error")
    func junit() throws {
        let xml = JUnitReport.xml(try Self.sample())
        let document = try XMLDocument(data: Data(xml.utf8))
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } ==
            ["CBT/CHUNK/BV-01", "CBT/CHUNK/BV-02", "CBT/GATE/BI-01", "CBT/GATE/BI-02", "CBT/ROLE/BV-01"])
        #expect(cases.map { $0.attribute(forName: "classname")?.stringValue } ==
            ["CBT/CHUNK", "CBT/CHUNK", "CBT/GATE", "CBT/GATE", "CBT/ROLE"])
        let failure = try #require(cases[1].elements(forName: "failure").first)
        let message = try #require(failure.attribute(forName: "message")?.stringValue)
        #expect(message.contains("Captures/x/node0.pcap frames 17, 18"), "\(message)")
        #expect(message.contains("<EOM> & \"marker\""))
        #expect(["failure", "error", "skipped"].allSatisfy { cases[0].elements(forName: $0).isEmpty }, "a pass has no verdict element")
        #expect(!cases[3].elements(forName: "skipped").isEmpty)
        #expect(!cases[4].elements(forName: "error").isEmpty)
        let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "failures")?.stringValue == "2")
        #expect(suite.attribute(forName: "errors")?.stringValue == "1")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
    }

    @Test("the four files are written; the HTML is self-contained and shows the capture's packets")
    func files() throws {
        let folder = try Fixtures.folder("report-files")
        let capture = SenderCapture.transfer(chunks: 2)
        let capturePath = "\(folder)/node0.pcap"
        try writePcap(capture.records, to: capturePath)
        let report = try Self.sample(captures: [capturePath])
        try ReportWriter(folder: "\(folder)/run").write(report)
        for name in ReportWriter.files {
            #expect(FileManager.default.fileExists(atPath: "\(folder)/run/\(name)"), "\(name)")
        }
        let html = try String(contentsOfFile: "\(folder)/run/report.html", encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"))
        #expect(html.contains("LE Read Buffer Size") || html.contains("Command Complete"), "timeline decodes packets")
        #expect(html.contains("href=\"../node0.pcap\""))
        #expect(html.contains("&lt;EOM&gt;"))
        let markdown = try String(contentsOfFile: "\(folder)/run/summary.md", encoding: .utf8)
        #expect(markdown.contains("| `CBT/CHUNK/BV-02`"))
        #expect(markdown.contains("5 cases: 1 pass, 1 fail"))
        #expect(try ReportWriter.read(folder: "\(folder)/run") == report)
    }

    @Test("merge joins shard reports and refuses another schema version")
    func merge() throws {
        var first = try Self.sample(runID: "a")
        var second = try Self.sample(runID: "b")
        (first.cases, second.cases) = (Array(first.cases.suffix(3)), Array(second.cases.prefix(2)))
        let order = try Fixtures.catalogue().entries.map(\.id)
        let merged = try ReportMerge.merge([first, second], order: order)
        #expect(merged.cases.count == 5)
        #expect(merged.runID == "a+b")
        #expect(merged.counts[.pass] == 1 && merged.counts[.fail] == 1)
        let expected = try Self.sample().cases.map(\.id).sorted { (order.firstIndex(of: $0) ?? .max) < (order.firstIndex(of: $1) ?? .max) }
        #expect(merged.cases.map(\.id) == expected, "catalogue order, not input order")
        // The same cases from two inputs on one controller: a shard merged twice.
        #expect(throws: ReportError.duplicateCase(id: "CBT/GATE/BI-01", repetition: 1, first: "one", second: "two")) {
            try ReportMerge.merge([first, first], sources: ["one", "two"])
        }
        // A capture check of the same case is another judgment: kept.
        var check = first
        check.controller = "none (captures: 1)"
        #expect(try ReportMerge.merge([first, check]).cases.count == 6)

        let folder = try Fixtures.folder("merge")
        try ReportWriter(folder: "\(folder)/one").write(first)
        var json = String(decoding: try ReportWriter.json(second), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2")
        try FileManager.default.createDirectory(atPath: "\(folder)/two", withIntermediateDirectories: true)
        try json.write(toFile: "\(folder)/two/report.json", atomically: true, encoding: .utf8)
        #expect(throws: ReportError.schemaVersion(path: "\(folder)/two/report.json", found: 2, expected: 1)) {
            try ReportWriter.read(folder: "\(folder)/two")
        }
        #expect(throws: ReportError.nothingToMerge) { try ReportMerge.merge([]) }
    }
}
