/// What `MeshRouter` asks its owner to do.
public enum MeshAction: Hashable, Sendable {
    /// Hand the packet to the local user (decrypt, check, report `.received`).
    case deliver(DataFrame)
    /// Send the frame (already carrying the decremented hop count) to a neighbour.
    case forward(DataFrame, to: UserID)
    /// A packet this node originated left the store unreached: report `.discarded`.
    case discarded(PacketID, reason: String)
    /// A frame was not acted on (duplicate, expired, out of hops); for the trace log only.
    case dropped(PacketID, reason: String)
}

/// Why the router keeps no copy or stops forwarding; the strings appear in traces and events.
public enum MeshDropReason {
    public static let duplicate = "duplicate"
    public static let expired = "expired"
    public static let outOfHops = "out of hops"
}
