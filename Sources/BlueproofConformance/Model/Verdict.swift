/// A case's verdict (docs/design.md, "Verdicts"; docs/runner.md, "Verdict policy").
public enum Verdict: String, Hashable, Sendable, Codable, CaseIterable {
    /// The behaviour was observed as documented.
    case pass
    /// The behaviour was observed and differs from the document.
    case fail
    /// The run did not show enough to judge (e.g. no transfer in the capture).
    case inconclusive
    /// The case does not apply here: the controller lacks a feature, no DUT control yet.
    case notApplicable = "not-applicable"
    /// The harness could not run the case: a controller died, a timeout, a setup failure.
    case error

    /// Whether this verdict makes `blueproof run` exit 1.
    public var failsRun: Bool { self == .fail || self == .error }
}

/// What a whole run says (docs/runner.md, "Verdict policy"): `blueproof run` exits 0 only when
/// it `passed`.
public enum RunResult: String, Hashable, Sendable, Codable {
    /// At least one case passed, and every other passed or did not apply.
    case passed
    /// A case failed or erred (exit 1).
    case failed
    /// Nothing failed, but a case was inconclusive, or no case was judged at all (exit 4).
    case unjudged

    /// The exit status of `blueproof run` for this result.
    public var exitStatus: Int32 {
        switch self {
        case .passed: 0
        case .failed: 1
        case .unjudged: 4
        }
    }
}
