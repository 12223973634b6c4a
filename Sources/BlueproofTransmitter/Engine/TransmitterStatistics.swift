/// Counters a transmitter keeps, for tests and benchmarks.
public struct TransmitterStatistics: Hashable, Sendable {
    /// Data frames taken from the link.
    public var dataFramesIn = 0
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
