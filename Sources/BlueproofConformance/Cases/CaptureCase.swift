import BlueproofCheck

/// A case judged on captures alone, recorded anywhere (`blueproof check`) or by a run: one
/// BlueproofCheck check whose id is in the catalogue, over every capture given. It fails when
/// one capture breaks the rule, passes when at least one shows it kept and none breaks it,
/// and is inconclusive otherwise.
public struct CaptureCase: Sendable {
    public let id: CaseID

    /// The BlueproofCheck checks that answer catalogue cases.
    public static let all: [CaptureCase] = ["CBT/FLOW/BI-01", "CBT/CHUNK/BV-01", "CBT/CHUNK/BV-02", "CBT/GATT/BV-03"]
        .map { CaptureCase(id: CaseID($0)) }

    public func judge(_ results: [(capture: String, check: CaptureCheck)]) -> CaseOutcome {
        let mine = results.filter { $0.check.id == id.rawValue }
        let findings = mine.map { Finding($0.check, capture: $0.capture) }
        let failed = mine.filter { $0.check.verdict == .fail }
        if !failed.isEmpty {
            return .fail(failed[0].check.reason, findings: findings)
        }
        if let passed = mine.first(where: { $0.check.verdict == .pass }) {
            return .pass(passed.check.reason + (mine.count > 1 ? " (\(mine.count) captures)" : ""), findings: findings)
        }
        return .inconclusive(mine.first?.check.reason ?? "no capture shows what this case needs", findings: findings)
    }
}
