/// One thing a case saw that explains its verdict: a capture and the frames in it (1-based,
/// as Wireshark counts them), or a plain observation when no capture applies.
public struct Finding: Hashable, Sendable, Codable {
    public var message: String
    /// The capture file the frames are in, nil for a non-capture observation.
    public var capture: String?
    public var frames: [Int]

    public init(_ message: String, capture: String? = nil, frames: [Int] = []) {
        self.message = message
        self.capture = capture
        self.frames = frames
    }

    /// `message (capture frames 1, 2)`.
    public var line: String {
        guard let capture else { return message }
        let where_ = frames.isEmpty ? capture : "\(capture) frame\(frames.count == 1 ? "" : "s") \(frames.map(String.init).joined(separator: ", "))"
        return "\(message) (\(where_))"
    }
}

/// What a case returns: its verdict, why, and the findings behind it.
public struct CaseOutcome: Hashable, Sendable {
    public var verdict: Verdict
    public var reason: String
    public var findings: [Finding]

    public init(_ verdict: Verdict, _ reason: String, findings: [Finding] = []) {
        self.verdict = verdict
        self.reason = reason
        self.findings = findings
    }

    public static func pass(_ reason: String, findings: [Finding] = []) -> CaseOutcome { CaseOutcome(.pass, reason, findings: findings) }
    public static func fail(_ reason: String, findings: [Finding] = []) -> CaseOutcome { CaseOutcome(.fail, reason, findings: findings) }
    public static func inconclusive(_ reason: String, findings: [Finding] = []) -> CaseOutcome {
        CaseOutcome(.inconclusive, reason, findings: findings)
    }
    public static func notApplicable(_ reason: String) -> CaseOutcome { CaseOutcome(.notApplicable, reason) }
    public static func error(_ reason: String) -> CaseOutcome { CaseOutcome(.error, reason) }

    /// The reason and, unless the case passed, where to look: the first findings' capture
    /// and frames, as one line.
    public var summary: String {
        guard verdict != .pass else { return reason }
        let located = findings.filter { $0.capture != nil }.prefix(2).map(\.line)
        return located.isEmpty ? reason : reason + ": " + located.joined(separator: "; ")
    }
}
