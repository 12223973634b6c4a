import Foundation

/// `report.html`: one self-contained page (inline style, no scripts, no external assets): the
/// summary, a filter by verdict and by group, the table of cases with the failing and erring
/// ones first, then per case its verdict, citation, reason, findings, log excerpt, the first
/// packets of each capture and links to the captures.
///
/// The filter is two groups of radio buttons and CSS `:checked ~` rules, so it works opened
/// from disk, without a server and without scripts: a row or section carries `data-verdict`
/// and `data-group`, and each checked button other than "all" hides what does not match.
public enum HTMLReport {
    public static func html(_ report: RunReport, reportFolder: String) -> String {
        let cases = ordered(report.cases)
        let groups = Array(Set(cases.map(\.group))).sorted()
        let verdicts = Verdict.allCases.filter { verdict in cases.contains { $0.verdict == verdict } }
        var out = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>blueproof run \(e(report.runID))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;color:#222}
        table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
        .pass{color:#176f2c}.fail,.error{color:#b00020}.inconclusive{color:#8a6d00}.not-applicable{color:#666}
        pre{background:#f6f6f6;padding:6px;overflow-x:auto;font-size:85%}
        section{border-top:1px solid #ddd;margin-top:1.5em}code{font-size:95%}
        .filter{margin:.3em 0}.filter input{margin-left:.8em}
        \(filterRules(verdicts: verdicts, groups: groups))
        </style></head><body>
        <h1>blueproof run <code>\(e(report.runID))</code></h1>
        <p>Profile <code>\(e(report.profile.name))</code> (\(e(report.profile.path))), controller <code>\(e(report.controller))</code>,
        started \(e(report.startedAt))\(report.endedAt.map { ", ended \(e($0))" } ?? " (still running or stopped early)").</p>
        <p><strong>\(e(report.summaryLine))</strong></p>
        \(filterControls(verdicts: verdicts, groups: groups))
        <table id="cases"><tr><th>case</th><th>verdict</th><th>seconds</th><th>reason</th></tr>

        """
        for (index, item) in cases.enumerated() {
            out += "<tr \(attributes(item))><td><a href=\"#case-\(index)\">\(e(item.id.rawValue))</a></td><td class=\"\(item.verdict.rawValue)\">\(item.verdict.rawValue)</td>"
            out += "<td>\(String(format: "%.2f", item.durationSeconds))</td><td>\(e(item.reasonWithFrames))</td></tr>\n"
        }
        out += "</table>\n"
        for (index, item) in cases.enumerated() {
            out += "<section id=\"case-\(index)\" \(attributes(item))><h2>\(e(item.id.rawValue))\(item.repetition > 1 ? " #\(item.repetition)" : ""): \(e(item.title))</h2>\n"
            out += "<p class=\"\(item.verdict.rawValue)\"><strong>\(item.verdict.rawValue)</strong>: \(e(item.reason))</p>\n"
            out += "<p>Source: \(e(item.citation.document)), “\(e(item.citation.section))”; kind \(e(item.kind)); \(String(format: "%.2f", item.durationSeconds)) s.</p>\n"
            if !item.findings.isEmpty {
                out += "<ul>" + item.findings.map { "<li>\(e($0.line))</li>" }.joined() + "</ul>\n"
            }
            if !item.log.isEmpty { out += "<details><summary>log excerpt</summary><pre>\(e(item.log.joined(separator: "\n")))</pre></details>\n" }
            for capture in item.captures {
                out += "<h3><a href=\"\(e(relative(capture, to: reportFolder)))\">\(e(URL(fileURLWithPath: capture).lastPathComponent))</a></h3>\n"
                out += timeline(PacketTimeline(capture: capture), marked: Set(item.findings.filter { $0.capture == capture }.flatMap(\.frames)))
            }
            out += "</section>\n"
        }
        out += "</body></html>\n"
        return out
    }

    /// The cases as the page shows them: failing and erring first, then inconclusive, then
    /// the rest; within each, the report's order.
    static func ordered(_ cases: [CaseResult]) -> [CaseResult] {
        func rank(_ verdict: Verdict) -> Int {
            switch verdict {
            case .fail, .error: 0
            case .inconclusive: 1
            case .pass, .notApplicable: 2
            }
        }
        return cases.enumerated().sorted { (rank($0.element.verdict), $0.offset) < (rank($1.element.verdict), $1.offset) }
            .map(\.element)
    }

    private static func attributes(_ item: CaseResult) -> String {
        "class=\"case\" data-verdict=\"\(item.verdict.rawValue)\" data-group=\"\(e(item.group))\""
    }

    /// `g0`, `g1`…: ids for the group buttons (a group name holds `/`).
    private static func groupID(_ index: Int) -> String { "g\(index)" }

    static func filterControls(verdicts: [Verdict], groups: [String]) -> String {
        var out = "<div class=\"filter\">verdict: <input type=\"radio\" name=\"verdict\" id=\"v-all\" checked><label for=\"v-all\">all</label>"
        for verdict in verdicts {
            out += "<input type=\"radio\" name=\"verdict\" id=\"v-\(verdict.rawValue)\"><label for=\"v-\(verdict.rawValue)\">\(verdict.rawValue)</label>"
        }
        out += "</div>\n<div class=\"filter\">group: <input type=\"radio\" name=\"group\" id=\"g-all\" checked><label for=\"g-all\">all</label>"
        for (index, group) in groups.enumerated() {
            out += "<input type=\"radio\" name=\"group\" id=\"\(groupID(index))\"><label for=\"\(groupID(index))\">\(e(group))</label>"
        }
        return out + "</div>"
    }

    /// One rule per button: when it is checked, every case (row and section) of another
    /// verdict or group is hidden. The buttons sit in the body before the table and sections,
    /// so `:has` finds them from `body`.
    static func filterRules(verdicts: [Verdict], groups: [String]) -> String {
        var rules: [String] = []
        for verdict in verdicts {
            rules.append("body:has(#v-\(verdict.rawValue):checked) .case:not([data-verdict=\"\(verdict.rawValue)\"]){display:none}")
        }
        for (index, group) in groups.enumerated() {
            rules.append("body:has(#\(groupID(index)):checked) .case:not([data-group=\"\(cssString(group))\"]){display:none}")
        }
        return rules.joined(separator: "\n")
    }

    /// `text` inside a CSS double-quoted string.
    private static func cssString(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "<", with: "\\3C ")
    }

    static func timeline(_ timeline: PacketTimeline, marked: Set<Int>) -> String {
        if let problem = timeline.problem, timeline.rows.isEmpty { return "<p>\(e(problem))</p>\n" }
        var out = "<table><tr><th>#</th><th>time (s)</th><th>direction</th><th>packet</th></tr>\n"
        for row in timeline.rows {
            let style = marked.contains(row.frame) ? " class=\"fail\"" : ""
            out += "<tr\(style)><td>\(row.frame)</td><td>\(String(format: "%.6f", row.seconds))</td><td>\(row.direction)</td><td><code>\(e(row.summary))</code></td></tr>\n"
        }
        out += "</table>\n"
        if timeline.totalFrames > timeline.rows.count {
            out += "<p>first \(timeline.rows.count) of \(timeline.totalFrames) frames; open the capture for the rest.</p>\n"
        }
        return out
    }

    /// `path` relative to `folder` when both are absolute, for links that survive moving both.
    static func relative(_ path: String, to folder: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        let common = zip(target, base).prefix { $0 == $1 }.count
        guard common > 1 else { return path }
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }

    static func e(_ text: String) -> String { JUnitReport.escape(text) }
}
