/// What a case needs before the behaviour it checks can be reached (docs/runner.md,
/// "Verdict policy"). Not reaching one is `error`, unless the profile
/// (`runner.optional_preconditions`) or `--optional-precondition` declares it optional: then the
/// case is `not-applicable` and says which declaration made it so.
public enum Precondition: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A node starts (`start`, a user id after it).
    case start
    /// Two nodes report each other connected, or a node reports a peer nearby.
    case connection
    /// A secure connection is reported.
    case secureConnection = "secure_connection"
    /// A runner's own reference transmitter (a tester) does its part: a send, a stop.
    case tester
    /// The subject starts from a fresh session (no key, no session left from before).
    case freshSession = "fresh_session"

    public var description: String { rawValue }
}

/// A case's stage could not be set up: the behaviour it checks was never reached, so the case
/// cannot judge it. `TransmitterCase.run` turns it into `error` (or `not-applicable` when the
/// precondition is declared optional); never `pass` and never `inconclusive`.
public struct StageFailure: Error, CustomStringConvertible {
    public let precondition: Precondition
    public let detail: String
    public init(_ precondition: Precondition, _ detail: String) {
        self.precondition = precondition
        self.detail = detail
    }

    public var description: String { "precondition \(precondition) not met: \(detail)" }

    /// The verdict for this failure under `profile`'s declarations.
    func outcome(optional: Set<Precondition>) -> CaseOutcome {
        guard optional.contains(precondition) else { return .error(description) }
        return .notApplicable("\(description) (declared optional: runner.optional_preconditions or --optional-precondition)")
    }
}
