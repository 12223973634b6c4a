import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// report.html as a browser shows it, opened from disk (no server): headless Chromium loads it
/// in a frame of a small test page whose script clicks the filter buttons and reads which
/// cases are displayed, then the DOM is dumped.
extension Integration {
    @Suite("report.html in a browser")
    struct HTMLReportBrowserTests {
        @Test("failures first; the verdict and group filters hide the other cases, without a server or scripts",
              .requires(.chromium), .timeLimit(.minutes(3)))
        func filters() async throws {
            let chromium = try RequiredComponent.require(.chromium)[0]
            let folder = try WorkFolder("html-browser")
            defer { folder.cleanUp() }
            let root = try #require(ConformanceFiles.root())
            let catalogue = try Catalogue.load(path: "\(root)/\(ConformanceFiles.catalogue)")
            // Two cases from each of two groups: a pass and a fail in the first, a pass and an error in the second.
            let groups = Array(Dictionary(grouping: catalogue.entries, by: \.id.group).filter { $0.value.count >= 2 }
                .sorted { $0.key < $1.key }.prefix(2))
            try #require(groups.count == 2)
            var report = RunReport(runID: "browser", startedAt: Date(), profile: .init(name: "p", path: "p.yaml"), controller: "btvirt")
            let outcomes: [CaseOutcome] = [.pass("fine"), .fail("broken"), .pass("fine"), .error("no controller")]
            let entries = groups.flatMap { $0.value.prefix(2) }
            report.cases = zip(entries, outcomes).map { CaseResult(entry: $0, outcome: $1, duration: .milliseconds(5), captures: [], log: []) }
            try ReportWriter(folder: folder.path).write(report)

            let harness = """
            <!DOCTYPE html><html><body><iframe id="f" src="report.html"></iframe><pre id="out">pending</pre>
            <script>
            document.getElementById('f').addEventListener('load', () => {
              const frame = document.getElementById('f');
              const d = frame.contentDocument, w = frame.contentWindow;
              const shown = () => [...d.querySelectorAll('#cases tr.case')]
                .filter(r => w.getComputedStyle(r).display !== 'none').map(r => r.dataset.verdict + '@' + r.dataset.group);
              const sections = () => [...d.querySelectorAll('section.case')]
                .filter(s => w.getComputedStyle(s).display !== 'none').length;
              const out = {all: shown()};
              d.getElementById('v-fail').click(); out.fail = shown(); out.failSections = sections();
              d.getElementById('v-all').click(); d.getElementById('g1').click(); out.g1 = shown();
              d.getElementById('v-error').click(); out.g1error = shown();
              document.getElementById('out').textContent = JSON.stringify(out);
            });
            </script></body></html>
            """
            try harness.write(toFile: folder.file("harness.html"), atomically: true, encoding: .utf8)
            let result = try await LiveCLI.run(chromium, [
                "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                "--user-data-dir=\(folder.file("profile"))", "--virtual-time-budget=5000", "--dump-dom",
                "file://\(folder.file("harness.html"))"])
            #expect(result.status == 0, "\(result.stderr)")
            let dump = result.stdout
            let start = try #require(dump.range(of: "<pre id=\"out\">"), "\(dump)")
            let end = try #require(dump.range(of: "</pre>", range: start.upperBound..<dump.endIndex), "\(dump)")
            let json = String(dump[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&amp;", with: "&")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
            let first = groups[0].key, second = groups[1].key
            #expect(out["all"] as? [String] == ["fail@\(first)", "error@\(second)", "pass@\(first)", "pass@\(second)"],
                    "failing and erring cases first: \(json)")
            #expect(out["fail"] as? [String] == ["fail@\(first)"], "\(json)")
            #expect(out["failSections"] as? Int == 1, "\(json)")
            #expect(out["g1"] as? [String] == ["error@\(second)", "pass@\(second)"], "\(json)")
            #expect(out["g1error"] as? [String] == ["error@\(second)"], "\(json)")
        }
    }
}
