import BlueproofConformance
import Foundation

/// How a case's line looks: coloured only on a terminal, and never when NO_COLOR is set
/// (https://no-color.org).
struct VerdictStyle {
    var colour: Bool

    static func forStandardOutput() -> VerdictStyle {
        VerdictStyle(colour: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    /// `pass            CBT/CHUNK/BV-01   2.31 s` and, unless it passed, the reason.
    func line(for result: CaseResult) -> String {
        let verdict = result.verdict.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)
        let name = result.repetition > 1 ? "\(result.id) #\(result.repetition)" : result.id.rawValue
        var text = "\(paint(verdict, result.verdict)) \(name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(String(format: "%6.2f s", result.durationSeconds))"
        if result.verdict != .pass { text += "  \(result.reasonWithFrames)" }
        return text
    }

    private func paint(_ text: String, _ verdict: Verdict) -> String {
        guard colour else { return text }
        let code = switch verdict {
        case .pass: "32"
        case .fail, .error: "31"
        case .inconclusive: "33"
        case .notApplicable: "90"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
