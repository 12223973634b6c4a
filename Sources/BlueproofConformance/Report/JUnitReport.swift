import Foundation

/// `junit.xml` (the JUnit XML that CI systems read): one testsuite per run, one testcase per
/// case result, named by the case id, with the group as class name. A failure's message names
/// the capture and frames; not-applicable is skipped; error is an error element.
public enum JUnitReport {
    public static func xml(_ report: RunReport) -> String {
        let counts = report.counts
        let total = report.cases.reduce(0) { $0 + $1.durationSeconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"blueproof\" tests=\"\(report.cases.count)\">\n"
        out += "  <testsuite name=\"\(escape("blueproof run \(report.runID)"))\" tests=\"\(report.cases.count)\""
        out += " failures=\"\((counts[.fail] ?? 0) + (counts[.inconclusive] ?? 0))\" errors=\"\(counts[.error] ?? 0)\""
        out += " skipped=\"\(counts[.notApplicable] ?? 0)\" time=\"\(seconds(total))\" timestamp=\"\(escape(report.startedAt))\">\n"
        out += "    <properties>\n"
        out += "      <property name=\"profile\" value=\"\(escape(report.profile.path))\"/>\n"
        out += "      <property name=\"controller\" value=\"\(escape(report.controller))\"/>\n"
        out += "    </properties>\n"
        for item in report.cases {
            let name = item.repetition > 1 ? "\(item.id) #\(item.repetition)" : item.id.rawValue
            out += "    <testcase name=\"\(escape(name))\" classname=\"\(escape(item.group))\" time=\"\(seconds(item.durationSeconds))\">\n"
            let message = escape(item.reasonWithFrames)
            let body = escape(([item.title, "\(item.citation.document), \"\(item.citation.section)\""]
                + item.findings.map(\.line) + item.log.suffix(10)).joined(separator: "\n"))
            switch item.verdict {
            case .pass: break
            case .fail:
                out += "      <failure message=\"\(message)\" type=\"fail\">\(body)</failure>\n"
            case .inconclusive:
                out += "      <failure message=\"inconclusive: \(message)\" type=\"inconclusive\">\(body)</failure>\n"
            case .notApplicable:
                out += "      <skipped message=\"not applicable: \(message)\"/>\n"
            case .error:
                out += "      <error message=\"\(message)\" type=\"error\">\(body)</error>\n"
            }
            if !item.captures.isEmpty {
                out += "      <system-out>\(escape(item.captures.map { "capture: \($0)" }.joined(separator: "\n")))</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// XML text and attribute escaping; characters XML 1.0 cannot hold become U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}
