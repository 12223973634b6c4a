/// Deliberate faults for broken variants of the reference transmitter: the conformance runner
/// shows each of its cases fails on at least one. Each defect is implemented where the correct
/// behaviour lives. Default: none.
public struct TransmitterDefects: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The originator grants one hop more than the hop limit (the packet reaches limit + 1 hops).
    public static let meshLimitOffByOne = TransmitterDefects(rawValue: 1 << 0)
    /// `send` accepts encrypted broadcast (sent in clear, flagged encrypted).
    public static let encryptedBroadcastAllowed = TransmitterDefects(rawValue: 1 << 1)
    /// Activity never refreshes a secure connection's expiry.
    public static let expiryNotRefreshed = TransmitterDefects(rawValue: 1 << 2)
    /// The identity lives in memory only; the store is never written.
    public static let sessionNotPersisted = TransmitterDefects(rawValue: 1 << 3)
    /// Trace lines carry the payload plaintext.
    public static let traceLeaksPayload = TransmitterDefects(rawValue: 1 << 4)
    /// The mesh has no duplicate cache: every copy is delivered and forwarded.
    public static let noDuplicateCache = TransmitterDefects(rawValue: 1 << 5)
    /// Relays forward whatever the hop count.
    public static let hopLimitIgnored = TransmitterDefects(rawValue: 1 << 6)
    /// On-demand mode connects to any number of users.
    public static let onDemandUncapped = TransmitterDefects(rawValue: 1 << 7)
    /// A changed key for a known user replaces the stored one (import and received frames).
    public static let keyReplacedSilently = TransmitterDefects(rawValue: 1 << 8)
    /// `send` accepts binary data with mesh (carried through the mesh).
    public static let binaryInMeshAllowed = TransmitterDefects(rawValue: 1 << 9)
    /// Full transmission fails instead of falling back to the mesh.
    public static let fullNeverFallsBack = TransmitterDefects(rawValue: 1 << 10)
    /// Received broadcasts are reported without the broadcast flag.
    public static let broadcastFlagDropped = TransmitterDefects(rawValue: 1 << 11)

    /// Every defect with its name, for reports and tests.
    public static let named: [(String, TransmitterDefects)] = [
        ("meshLimitOffByOne", .meshLimitOffByOne), ("encryptedBroadcastAllowed", .encryptedBroadcastAllowed),
        ("expiryNotRefreshed", .expiryNotRefreshed), ("sessionNotPersisted", .sessionNotPersisted),
        ("traceLeaksPayload", .traceLeaksPayload), ("noDuplicateCache", .noDuplicateCache),
        ("hopLimitIgnored", .hopLimitIgnored), ("onDemandUncapped", .onDemandUncapped),
        ("keyReplacedSilently", .keyReplacedSilently), ("binaryInMeshAllowed", .binaryInMeshAllowed),
        ("fullNeverFallsBack", .fullNeverFallsBack), ("broadcastFlagDropped", .broadcastFlagDropped),
    ]
}
