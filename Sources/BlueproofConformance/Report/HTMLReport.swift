import Foundation

/// `report.html`: one self-contained page (inline style, no scripts, no external assets): the
/// summary, then per case its verdict, citation, reason, findings, log excerpt, the first
/// packets of each capture and links to the captures.
public enum HTMLReport {
    public static func html(_ report: RunReport, reportFolder: String) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>blueproof run \(e(report.runID))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;color:#222}
        table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
        .pass{color:#176f2c}.fail,.error{color:#b00020}.inconclusive{color:#8a6d00}.not-applicable{color:#666}
        pre{background:#f6f6f6;padding:6px;overflow-x:auto;font-size:85%}
        section{border-top:1px solid #ddd;margin-top:1.5em}code{font-size:95%}
        </style></head><body>
        <h1>blueproof run <code>\(e(report.runID))</code></h1>
        <p>Profile <code>\(e(report.profile.name))</code> (\(e(report.profile.path))), controller <code>\(e(report.controller))</code>,
        started \(e(report.startedAt))\(report.endedAt.map { ", ended \(e($0))" } ?? " (still running or stopped early)").</p>
        <p><strong>\(e(report.summaryLine))</strong></p>
        <table><tr><th>case</th><th>verdict</th><th>seconds</th><th>reason</th></tr>

        """
        for (index, item) in report.cases.enumerated() {
            out += "<tr><td><a href=\"#case-\(index)\">\(e(item.id.rawValue))</a></td><td class=\"\(item.verdict.rawValue)\">\(item.verdict.rawValue)</td>"
            out += "<td>\(String(format: "%.2f", item.durationSeconds))</td><td>\(e(item.reasonWithFrames))</td></tr>\n"
        }
        out += "</table>\n"
        for (index, item) in report.cases.enumerated() {
            out += "<section id=\"case-\(index)\"><h2>\(e(item.id.rawValue))\(item.repetition > 1 ? " #\(item.repetition)" : ""): \(e(item.title))</h2>\n"
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
