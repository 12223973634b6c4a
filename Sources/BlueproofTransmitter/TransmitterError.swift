/// An error of the reference transmitter: a numbered code, a stable name and a description.
///
/// An open set (a struct with static members), so a profile or a device under test can carry
/// codes this module does not know. Equality is by `code` alone; `detail` carries context such
/// as the key path of a refused dictionary value.
///
/// Source: bridgefy-ios-sdk-readme.md, "Sending options", "Mesh", "Broadcast messages",
/// "Operation modes", "Dictionaries", "Maximum package sizes and throughput". The document names
/// the failing situations but gives **no numbers**; issue 5 says the SDK's headers number them
/// 50000–50024. Every `code` below is therefore assigned by blueproof (`origin` says so) and is a
/// profile value, not a documented fact.
public struct TransmitterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code (50000–50024 range, per issue 5; the mapping is blueproof's).
    public var code: Int
    /// A stable, machine-readable name, e.g. `encryptedBroadcast`.
    public var name: String
    /// A human-readable summary of the rule that refused the send.
    public var summary: String
    /// Where the rule comes from.
    public var origin: TransmitterErrorOrigin
    /// Optional context (key path, sizes); never payload plaintext or keys.
    public var detail: String?

    public init(code: Int, name: String, summary: String, origin: TransmitterErrorOrigin, detail: String? = nil) {
        self.code = code
        self.name = name
        self.summary = summary
        self.origin = origin
        self.detail = detail
    }

    /// The same error with `detail` set.
    public func with(detail: String) -> TransmitterError {
        var copy = self
        copy.detail = detail
        return copy
    }

    public var description: String {
        let base = "\(code) \(name): \(summary)"
        guard let detail else { return base }
        return base + " (" + detail + ")"
    }

    public static func == (lhs: TransmitterError, rhs: TransmitterError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Where a `TransmitterError`'s rule comes from.
public enum TransmitterErrorOrigin: Hashable, Sendable {
    /// The document states the rule; the associated value names the section heading.
    case document(section: String)
    /// The rule is inferred (from the issue, or a blueproof choice where the document is vague);
    /// the associated value says why. See docs/transmitter.md, "Choices".
    case inferred(reason: String)
}
