/// Deliberate faults for broken variants of the reference transmitter: the conformance runner
/// shows each of its cases fails on at least one. Each defect is implemented where the correct
/// behaviour lives. Default: none.
public struct TransmitterDefects: OptionSet, Hashable, Sendable {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

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

    /// Mesh packets leave without the mesh flag (receivers report mesh false).
    public static let meshFlagDropped = TransmitterDefects(rawValue: 1 << 12)
    /// Every packet leaves with the mesh flag, direct ones included.
    public static let directFlaggedAsMesh = TransmitterDefects(rawValue: 1 << 13)
    /// Data frames name a random sender instead of the session's user.
    public static let senderMisreported = TransmitterDefects(rawValue: 1 << 14)
    /// One byte of an encrypted packet's content is changed before sealing.
    public static let encryptedPayloadCorrupted = TransmitterDefects(rawValue: 1 << 15)
    /// Relays never forward: the mesh ends at the sender's neighbours.
    public static let meshNeverRelays = TransmitterDefects(rawValue: 1 << 16)
    /// Relays hand every plain packet they carry to their own app, whoever it is for (sealed
    /// ones do not open for them: they are logged and dropped).
    public static let relayDeliversEverything = TransmitterDefects(rawValue: 1 << 17)

    /// Encrypted packets leave unsealed (still flagged encrypted): the plaintext, and the sender,
    /// are on the air, in a layout receivers refuse.
    public static let encryptionSkipped = TransmitterDefects(rawValue: 1 << 18)
    /// The originator offers a mesh packet only to neighbours other than its receiver (when it
    /// sends it and when neighbours connect later): a receiver in range gets it only through a relay.
    public static let meshSkipsReceiver = TransmitterDefects(rawValue: 1 << 19)
    /// Relays forward to the neighbours connected when a packet arrives and never hold it for
    /// neighbours that connect later.
    public static let meshNeverHolds = TransmitterDefects(rawValue: 1 << 20)
    /// A secure connection lapses at half the expiration limit.
    public static let expiryEarly = TransmitterDefects(rawValue: 1 << 21)
    /// A secure connection lapses at twice the expiration limit.
    public static let expiryLate = TransmitterDefects(rawValue: 1 << 22)
    /// Relays drop mesh dictionaries of the mesh limit or more (one byte too strict when relaying).
    public static let relayDropsAtLimit = TransmitterDefects(rawValue: 1 << 23)
    /// The originator grants one hop fewer than the hop limit (the packet stops a hop short).
    public static let meshLimitShortByOne = TransmitterDefects(rawValue: 1 << 24)

    /// The log level is ignored for the transmitter's `log` events: every line is reported.
    public static let logLevelIgnored = TransmitterDefects(rawValue: 1 << 25)

    /// Automatic mode keeps its first connection and drops every other (no mesh of more than two).
    public static let automaticSinglePeer = TransmitterDefects(rawValue: 1 << 26)

    // issue 15: atkA, active attacks on the receive path (bits 32 and up, clear of others' additions)
    /// Data frames are not checked for a sender id derived from the carried key: any signed frame
    /// may claim any sender (the published impersonation).
    public static let senderNotBoundToKey = TransmitterDefects(rawValue: 1 << 32)
    /// A data frame's carried key is compared with the key on record (`keyConflict`) before its
    /// signature is checked, so an unsigned frame can raise `keyConflict` for a known user.
    public static let keyConflictBeforeSignature = TransmitterDefects(rawValue: 1 << 33)
    /// Key exchange frames are not checked for a key that derives the user id they name: a
    /// relay may substitute its own key for a peer's.
    public static let keyNotBoundToUser = TransmitterDefects(rawValue: 1 << 34)
    /// After a frame that does not decode, the receiver takes no further frame (a crash, modelled).
    public static let malformedFrameStopsReceiver = TransmitterDefects(rawValue: 1 << 35)
    /// After a payload nested over the depth limit, the receiver takes no further frame (a crash, modelled).
    public static let nestedPayloadStopsReceiver = TransmitterDefects(rawValue: 1 << 36)
    /// The ids of delivered packets live in memory only: a packet replayed after a restart is delivered again.
    public static let replayStateNotPersisted = TransmitterDefects(rawValue: 1 << 37)
    /// No replay guard: only the mesh's in-memory duplicate cache (least recently used ids), which a
    /// flood of fresh ids flushes.
    public static let replayGuardOff = TransmitterDefects(rawValue: 1 << 38)
    /// A secure connection is reported as soon as the keyRequest is sent, before any keyResponse.
    public static let secureWithoutResponse = TransmitterDefects(rawValue: 1 << 39)
    /// A keyResponse's key is taken without checking that it derives the user id it names (a
    /// keyRequest's still is): a relay may answer for a peer with its own key.
    public static let responseKeyNotBoundToUser = TransmitterDefects(rawValue: 1 << 40)
    /// An encrypted frame keeps its sender id, signing key and signature in the clear header,
    /// as before issue 15 ("Metadata"), besides sealing the payload: relays and observers learn
    /// who sent it (and receivers that follow the wire refuse the layout).
    public static let senderInClear = TransmitterDefects(rawValue: 1 << 41)
    /// A sealed frame's sender is not checked once it is opened (plain frames still are): a
    /// frame encrypted to this user may claim anyone.
    public static let sealedSenderUnchecked = TransmitterDefects(rawValue: 1 << 42)
    /// A sealed frame for this user that does not authenticate (`PacketSealerError.tampered`) is
    /// answered with a keyRequest to the link peer (a re-key, as if its key were stale): the
    /// reaction tells an attacker how the opening failed, an oracle.
    public static let openFailureAnswered = TransmitterDefects(rawValue: 1 << 43)
    /// A sealed frame for this user that does not open still has its packet id marked seen, so
    /// an altered copy ahead of the genuine frame gets it dropped as a duplicate.
    public static let failedOpeningMarksSeen = TransmitterDefects(rawValue: 1 << 44)
    /// A sealed frame's body is decrypted without checking the GCM tag or the associated data
    /// (the inner signature is still checked): a copy with an altered tag opens and is delivered.
    public static let tagUnchecked = TransmitterDefects(rawValue: 1 << 45)
    // issue 15: the hello
    /// A peer is taken to be whoever the link names, on connection: hellos are not checked
    /// (each side still sends its own, with its proof).
    public static let unsignedHello = TransmitterDefects(rawValue: 1 << 27)

    /// Every defect with its name, for reports and tests.
    public static let named: [(String, TransmitterDefects)] = [
        ("meshLimitOffByOne", .meshLimitOffByOne), ("encryptedBroadcastAllowed", .encryptedBroadcastAllowed),
        ("expiryNotRefreshed", .expiryNotRefreshed), ("sessionNotPersisted", .sessionNotPersisted),
        ("traceLeaksPayload", .traceLeaksPayload), ("noDuplicateCache", .noDuplicateCache),
        ("hopLimitIgnored", .hopLimitIgnored), ("onDemandUncapped", .onDemandUncapped),
        ("keyReplacedSilently", .keyReplacedSilently), ("binaryInMeshAllowed", .binaryInMeshAllowed),
        ("fullNeverFallsBack", .fullNeverFallsBack), ("broadcastFlagDropped", .broadcastFlagDropped),
        ("meshFlagDropped", .meshFlagDropped), ("directFlaggedAsMesh", .directFlaggedAsMesh),
        ("senderMisreported", .senderMisreported), ("encryptedPayloadCorrupted", .encryptedPayloadCorrupted),
        ("meshNeverRelays", .meshNeverRelays), ("relayDeliversEverything", .relayDeliversEverything),
        ("encryptionSkipped", .encryptionSkipped), ("meshSkipsReceiver", .meshSkipsReceiver),
        ("meshNeverHolds", .meshNeverHolds), ("expiryEarly", .expiryEarly), ("expiryLate", .expiryLate),
        ("relayDropsAtLimit", .relayDropsAtLimit), ("meshLimitShortByOne", .meshLimitShortByOne),
        ("logLevelIgnored", .logLevelIgnored), ("automaticSinglePeer", .automaticSinglePeer),
        // issue 15: atkA
        ("senderNotBoundToKey", .senderNotBoundToKey), ("keyConflictBeforeSignature", .keyConflictBeforeSignature),
        ("keyNotBoundToUser", .keyNotBoundToUser), ("malformedFrameStopsReceiver", .malformedFrameStopsReceiver),
        ("nestedPayloadStopsReceiver", .nestedPayloadStopsReceiver), ("replayStateNotPersisted", .replayStateNotPersisted),
        ("replayGuardOff", .replayGuardOff), ("secureWithoutResponse", .secureWithoutResponse),
        ("responseKeyNotBoundToUser", .responseKeyNotBoundToUser), ("senderInClear", .senderInClear),
        ("sealedSenderUnchecked", .sealedSenderUnchecked), ("openFailureAnswered", .openFailureAnswered),
        ("failedOpeningMarksSeen", .failedOpeningMarksSeen), ("tagUnchecked", .tagUnchecked),
        // issue 15: the hello
        ("unsignedHello", .unsignedHello),
    ]
}
