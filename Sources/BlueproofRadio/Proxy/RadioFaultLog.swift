/// What the radio proxy did to a run: every fault it injected and every decision that changed
/// what a host saw (range changes, hidden advertisers, held connections), with its time.
public struct RadioFaultLogEntry: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Time since the world started, in seconds, on the world's clock.
    public var time: Double
    /// The node whose link it happened on.
    public var node: Int
    public var kind: Kind
    /// What exactly, for a person.
    public var detail: String
    /// How many it concerned, where that is a number a check needs (credits released).
    public var count: Int?

    public init(time: Double, node: Int, kind: Kind, detail: String, count: Int? = nil) {
        self.time = time
        self.node = node
        self.kind = kind
        self.detail = detail
        self.count = count
    }

    public enum Kind: String, Hashable, Sendable, Codable {
        /// A pair came into range or left it.
        case rangeChange = "range-change"
        /// An advertiser out of range: its report was not delivered.
        case hidden
        /// A connection attempt to an out-of-range peer was held by the proxy.
        case connectionHeld = "connection-held"
        /// A held attempt reached the controller once the peer came into range.
        case connectionReleased = "connection-released"
        /// A held attempt was cancelled by the host: Unknown Connection Identifier.
        case connectionCancelled = "connection-cancelled"
        case drop
        case delay
        case withholdCredits = "withhold-credits"
        case releaseCredits = "release-credits"
        case bufferSize = "buffer-size"
        case disconnect
        case hardwareError = "hardware-error"
        /// The node's controller stopped reading: the queue towards it overflowed, its link was closed.
        case linkFaulted = "link-faulted"
    }

    public var description: String {
        "\(String(format3(time)))s node \(node) \(kind.rawValue): \(detail)"
    }
}

/// `1.234` with three decimals, without Foundation.
func format3(_ value: Double) -> String {
    let millis = Int((value * 1000).rounded())
    let sign = millis < 0 ? "-" : ""
    let magnitude = abs(millis)
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
