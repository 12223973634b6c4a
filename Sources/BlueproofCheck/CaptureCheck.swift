/// The outcome of one capture-level check.
public enum CheckVerdict: String, Hashable, Sendable, Codable {
    /// The capture shows the rule kept, and shows enough to judge it.
    case pass
    /// The capture shows the rule broken; ``CaptureCheck/frames`` says where.
    case fail
    /// The capture does not show enough to judge (no data of the kind, no buffer size read).
    case inconclusive
}

/// One capture-level check on one capture: the catalogue id it answers where one exists
/// (Conformance/catalogue.yaml, `kind: capture`), otherwise a `CAP/...` id of this tool.
public struct CaptureCheck: Hashable, Sendable, Codable {
    public var id: String
    public var title: String
    public var verdict: CheckVerdict
    public var reason: String
    /// Offending packets, 1-based record numbers as Wireshark counts them (at most
    /// ``CaptureCheck/maximumFrames``; ``reason`` gives the full count).
    public var frames: [Int]

    /// Frames kept per check, so a badly broken capture does not flood the report.
    public static let maximumFrames = 20

    public init(id: String, title: String, verdict: CheckVerdict, reason: String, frames: [Int] = []) {
        self.id = id
        self.title = title
        self.verdict = verdict
        self.reason = reason
        self.frames = Array(frames.prefix(Self.maximumFrames))
    }
}

/// What a check compares the capture against, beyond the capture itself.
public struct CheckOptions: Hashable, Sendable {
    /// The payload the transfer should carry; adds the byte-exact payload check.
    public var payload: [UInt8]?
    /// Bytes that must never appear in clear in ACL data; adds the plaintext check.
    public var plaintext: [UInt8]?

    public init(payload: [UInt8]? = nil, plaintext: [UInt8]? = nil) {
        self.payload = payload
        self.plaintext = plaintext
    }
}
