/// Deliberate faults for broken variants of the Spark reference (issue 17): each breaks one
/// documented rule, where that rule is implemented, so a case can be shown to fail on it.
/// Default: none.
public struct SparkDefects: OptionSet, Hashable, Sendable {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The caller takes a decline for an accept (SPK/CONN/BI-01).
    public static let declineTakenAsAccept = SparkDefects(rawValue: 1 << 0)
    /// The single-connection app lets a second offer through (SPK/CONN/BI-02).
    public static let secondOfferKept = SparkDefects(rawValue: 1 << 1)
    /// The callee takes offers whatever key it holds for the caller (SPK/CONN/BI-03).
    public static let keyUnchecked = SparkDefects(rawValue: 1 << 2)
    /// `startDataConnection` takes metadata over 4096 bytes (SPK/CONN/BI-04).
    public static let metadataUnbounded = SparkDefects(rawValue: 1 << 3)
    /// `closeDataChannel` leaves queued sends to go out (SPK/STRM/BI-01).
    public static let closeKeepsPending = SparkDefects(rawValue: 1 << 4)
    /// Data that arrives before the receive callbacks are set is delivered (SPK/FILE/BI-03).
    public static let deliversBeforeCallbacks = SparkDefects(rawValue: 1 << 5)
    /// A send reports no progress before `done` (SPK/FILE/BV-01).
    public static let progressSkipped = SparkDefects(rawValue: 1 << 6)
    /// A send's second piece reports progress 0: progress goes backwards (SPK/FILE/BV-01).
    public static let progressBackwards = SparkDefects(rawValue: 1 << 7)
    /// A file partly received when the link drops is reported complete (SPK/FILE/BI-02).
    public static let completeOnLinkLoss = SparkDefects(rawValue: 1 << 8)
    /// A received file is reported complete without checking its SHA-256 (SPK/FILE/BV-04).
    public static let digestUnchecked = SparkDefects(rawValue: 1 << 9)
}
