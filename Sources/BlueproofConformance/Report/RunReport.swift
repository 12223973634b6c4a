import BlueproofAsync
import Foundation

/// `report.json`: one run, versioned (docs/report-schema.md). Written after every case, so a
/// run that stops midway keeps what it recorded.
public struct RunReport: Hashable, Sendable, Codable {
    /// The schema version this build writes; `report merge` refuses any other.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var runID: String
    /// ISO 8601, UTC.
    public var startedAt: String
    public var endedAt: String?
    public var tool: String
    public var profile: ProfileInfo
    public var controller: String
    public var dut: String?
    /// How the implementation under test names itself: its first `blueproof-dut:` line
    /// (`--dut-exec`, docs/dut.md); nil when it printed none.
    public var implementation: String?
    public var filter: [String]
    public var shard: String?
    public var repeatCount: Int
    /// Where the captures of this run are, relative to the report folder when possible.
    public var capturesRoot: String?
    public var cases: [CaseResult]

    public struct ProfileInfo: Hashable, Sendable, Codable {
        public var name: String
        public var path: String

        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    public init(runID: String, startedAt: Date, profile: ProfileInfo, controller: String, dut: String? = nil,
                filter: [String] = [], shard: String? = nil, repeatCount: Int = 1, capturesRoot: String? = nil) {
        schemaVersion = Self.currentSchemaVersion
        self.runID = runID
        self.startedAt = Self.timestamp(startedAt)
        endedAt = nil
        tool = "blueproof"
        self.profile = profile
        self.controller = controller
        self.dut = dut
        self.filter = filter
        self.shard = shard
        self.repeatCount = repeatCount
        self.capturesRoot = capturesRoot
        cases = []
    }

    /// Verdict → count, every verdict present.
    public var counts: [Verdict: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0, 0) })
        for item in cases { counts[item.verdict, default: 0] += 1 }
        return counts
    }

    /// Whether a case failed or errored (exit 1).
    public var failed: Bool { cases.contains { $0.verdict.failsRun } }

    /// What the run as a whole says (docs/runner.md, "Verdict policy").
    public var result: RunResult {
        if failed { return .failed }
        if cases.contains(where: { $0.verdict == .inconclusive }) { return .unjudged }
        if !cases.contains(where: { $0.verdict == .pass }) { return .unjudged }
        return .passed
    }

    /// `9 cases: 8 pass, 1 fail, 0 inconclusive, 0 not-applicable, 0 error: FAILED`, the
    /// counts then the run's result, so a run with unjudged cases never reads as a pass.
    public var summaryLine: String {
        let counts = counts
        let tally = "\(cases.count) case\(cases.count == 1 ? "" : "s"): "
            + Verdict.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        let unjudged = counts[.inconclusive] ?? 0
        let verdict = switch result {
        case .passed: "PASSED"
        case .failed: "FAILED"
        case .unjudged where unjudged > 0: "NOT PASSED: \(unjudged) case\(unjudged == 1 ? "" : "s") unjudged (inconclusive)"
        case .unjudged: "NOT PASSED: no case was judged (none passed or failed)"
        }
        return tally + ": " + verdict
    }

    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// One case's result in a report.
public struct CaseResult: Hashable, Sendable, Codable {
    public var id: CaseID
    public var title: String
    public var group: String
    public var citation: Citation
    public var kind: String
    public var verdict: Verdict
    public var reason: String
    public var durationSeconds: Double
    /// 1 unless `--repeat` ran the case more than once.
    public var repetition: Int
    /// The case's captures, one per node.
    public var captures: [String]
    public var findings: [Finding]
    /// The last lines the case and the runner logged.
    public var log: [String]

    public struct Citation: Hashable, Sendable, Codable {
        public var document: String
        public var section: String
    }

    public init(entry: CatalogueEntry, outcome: CaseOutcome, duration: Duration, repetition: Int = 1,
                captures: [String], log: [String]) {
        id = entry.id
        title = entry.title
        group = entry.id.group
        citation = Citation(document: entry.source.document, section: entry.source.section)
        kind = entry.kind
        verdict = outcome.verdict
        reason = outcome.reason
        durationSeconds = duration.seconds
        self.repetition = repetition
        self.captures = captures
        findings = outcome.findings
        self.log = log
    }

    /// The reason and where to look: the captures and frames of the findings.
    public var reasonWithFrames: String {
        CaseOutcome(verdict, reason, findings: findings).summary
    }
}
