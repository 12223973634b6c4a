import Foundation

/// `summary.md`: the run as a Markdown table, for CI job summaries.
public enum MarkdownSummary {
    public static func markdown(_ report: RunReport) -> String {
        var out = "## blueproof run \(report.runID)\n\n"
        out += "Profile `\(report.profile.name)`, controller `\(report.controller)`"
        if let shard = report.shard { out += ", shard \(shard)" }
        out += ". **\(report.summaryLine)**\n\n"
        out += "| case | verdict | time | reason |\n|---|---|---:|---|\n"
        for item in report.cases {
            let mark = switch item.verdict {
            case .pass: "✅ pass"
            case .fail: "❌ fail"
            case .error: "💥 error"
            case .inconclusive: "❔ inconclusive"
            case .notApplicable: "➖ not-applicable"
            }
            out += "| `\(item.id)` \(cell(item.title)) | \(mark) | \(String(format: "%.1f", item.durationSeconds)) s | \(cell(item.reasonWithFrames)) |\n"
        }
        return out
    }

    /// Text safe inside a table cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
