/// Counters a transmitter keeps, for tests and benchmarks.
public struct TransmitterStatistics: Hashable, Sendable {
    /// Data frames taken from the link.
    public var dataFramesIn = 0
    /// Frames taken from the link, by link peer and kind (nil: did not decode); what a tester
    /// node heard from the subject, by which BFT/ATK/BI-21 judges its replies.
    public var framesIn: [UserID: [FrameKind?: Int]] = [:]
    /// Peers `framesIn` holds, at most: frames from later ones are not counted (any device in
    /// range can connect under a new id).
    public static let peersCounted = 256

    /// Counts a frame from `peer`: of `kind`, or undecodable when nil.
    mutating func countFrame(_ kind: FrameKind?, from peer: UserID) {
        guard framesIn[peer] != nil || framesIn.count < Self.peersCounted else { return }
        framesIn[peer, default: [:]][kind, default: 0] += 1
    }
    /// Packets reported as `.received`.
    public var delivered = 0
    /// Frames forwarded to neighbours.
    public var forwarded = 0
    /// Copies dropped by the duplicate cache.
    public var duplicates = 0
    /// Frames dropped for a bad signature, a key conflict, or failed decryption or decoding.
    public var rejected = 0

    public init() {}
}
