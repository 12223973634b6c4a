/// A case's verdict (DESIGN.md, "Conformance cases"). Only `fail` and `error` fail a run.
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
