import Foundation

/// Progress on standard error: a bar redrawn in place on a terminal (coloured unless NO_COLOR
/// is set), a line per tenth elsewhere. Lines written meanwhile go through ``line(_:)`` so
/// the bar never shares their line.
final class ProgressBar {
    private let label: String
    private let terminal = isatty(STDERR_FILENO) == 1
    private let colour = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    private var lastTenth = -1
    private var shown = false

    init(label: String) { self.label = label }

    /// Shows `bytes` of `total` (unknown when nil) at `bytesPerSecond`.
    func update(bytes: Int, total: Int?, bytesPerSecond: Double) {
        let fraction = total.map { $0 > 0 ? min(1, Double(bytes) / Double($0)) : 1 }
        update(fraction: fraction, detail: "\(Self.bytes(bytes)) \(Self.bytes(Int(bytesPerSecond)))/s")
    }

    /// Shows `fraction` done (unknown when nil), with `detail` after it.
    func update(fraction: Double?, detail: String) {
        if terminal {
            let width = 30
            let filled = Int(max(0, min(1, fraction ?? 0)) * Double(width))
            let body = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            let percent = fraction.map { String(format: "%3.0f%%", $0 * 100) } ?? "   "
            let painted = colour ? "\u{1B}[32m\(body)\u{1B}[0m" : body
            Console.diagnostic("\r\(label) [\(painted)] \(percent) \(detail)   ")
            shown = true
        } else if let fraction {
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            Console.diagnostic("• \(label): \(tenth * 10)% \(detail)\n")
        }
    }

    /// A step as its own line on standard error, labelled.
    func line(_ text: String) {
        finish()
        Console.diagnostic("• \(label): \(text)\n")
    }

    /// Ends the bar's line, if one is drawn.
    func finish() {
        if shown { Console.diagnostic("\n") }
        shown = false
    }

    /// `count` bytes for people: B, kB or MB (decimal).
    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1000: "\(count) B"
        case ..<1_000_000: String(format: "%.1f kB", Double(count) / 1000)
        default: String(format: "%.2f MB", Double(count) / 1_000_000)
        }
    }
}
