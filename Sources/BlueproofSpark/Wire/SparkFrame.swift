/// Who offered the connection a frame belongs to, seen from the frame's sender
/// (docs/spark-wire.md "Header"). Both ends number their own offers, so the pair
/// (connection number, origin) names one connection without collisions.
public enum SparkOrigin: UInt8, Hashable, Sendable {
    /// The sender of this frame offered the connection.
    case sender = 0
    /// The receiver of this frame offered it.
    case receiver = 1
}

/// The fixed part of every frame.
public struct SparkHeader: Hashable, Sendable {
    public var kind: UInt8
    public var origin: SparkOrigin
    public var connection: UInt32

    public init(kind: UInt8, origin: SparkOrigin, connection: UInt32) {
        self.kind = kind
        self.origin = origin
        self.connection = connection
    }
}

/// Why a connection was declined or ended; carried by `decline` and `end` frames.
public enum SparkEndReason: UInt8, Hashable, Sendable, CaseIterable {
    /// The callee's application declined ("Accept/Decline incoming data connection requests").
    case declined = 1
    /// Either application ended it (`end(_ connection:)`).
    case ended = 2
    /// The callee holds its one connection and ends any other offer ("This app supports
    /// only a single ongoing data connection", "Listening For Data Connections").
    case busy = 3
    /// Keys were not synchronized (`kMediaFailureKeyError`, "Starting A Data Connection").
    case keyError = 4
    /// The offer could not be read (bad metadata, bad field): see `SparkWireError`.
    case malformed = 5
    /// The offer was not answered within the caller's offer timeout.
    case timeout = 6
    /// The callee already holds `SparkLimits.maxConnections` (or its own lower limit).
    case tooManyConnections = 7
    /// The link under the connection went away (never sent; reported locally).
    case linkLost = 8
}

/// What a data transfer carries: an in-memory block or a file
/// (`kDataChannelData`, file callbacks; "Receiving Data").
public enum SparkTransferKind: UInt8, Hashable, Sendable {
    case data = 1
    case file = 2
}

/// Why a transfer failed, as the `error` frame tells the other side.
public enum SparkTransferFailure: UInt8, Hashable, Sendable, CaseIterable {
    /// The sender's file vanished or could not be read ("You must ensure that the file
    /// remains at the specified path", "Data and Files").
    case sourceUnavailable = 1
    /// The sender cancelled it (its channel closed, its connection ended).
    case cancelled = 2
    /// The receiver could not store it (cache folder not writable, disk full).
    case storageFailed = 3
    /// The receiver refused it: it broke a bound or the rules of the format.
    case refused = 4
}

extension SparkTransferFailure: CustomDebugStringConvertible {
    /// The case's name, as a fail message quotes an error that carries it (`remote(refused)`).
    public var debugDescription: String {
        switch self {
        case .sourceUnavailable: "sourceUnavailable"
        case .cancelled: "cancelled"
        case .storageFailed: "storageFailed"
        case .refused: "refused"
        }
    }
}

/// The header of a data block or file transfer: everything the receiver checks the bytes against.
public struct SparkTransferHeader: Hashable, Sendable {
    public var transfer: UInt32
    public var kind: SparkTransferKind
    public var size: UInt64
    public var sha256: [UInt8]
    /// The data block's description, or the file's name (the last component of its path).
    public var name: String

    public init(transfer: UInt32, kind: SparkTransferKind, size: UInt64, sha256: [UInt8], name: String) {
        self.transfer = transfer
        self.kind = kind
        self.size = size
        self.sha256 = sha256
        self.name = name
    }
}

/// A connection offer: who calls whom, the caller's key, and the application's metadata.
public struct SparkOffer: Hashable, Sendable {
    public var caller: UInt64
    public var callee: UInt64
    /// The caller's key id; the callee must hold the same one for the caller ("keys first").
    public var callerKey: [UInt8]
    public var metadata: String

    public init(caller: UInt64, callee: UInt64, callerKey: [UInt8], metadata: String) {
        self.caller = caller
        self.callee = callee
        self.callerKey = callerKey
        self.metadata = metadata
    }
}

/// One Spark frame's body (docs/spark-wire.md "Kinds").
public enum SparkFrame: Hashable, Sendable {
    /// First frame on a link: the sender's registration id (for the transport adapter).
    case hello(registrationID: UInt64)
    case offer(SparkOffer)
    case accept
    case decline(SparkEndReason)
    case end(SparkEndReason)
    case channelOpen(channel: UInt32, description: String)
    case channelClose(channel: UInt32)
    case streamBlock(channel: UInt32, bytes: [UInt8])
    case transferHeader(SparkTransferHeader)
    case chunk(transfer: UInt32, bytes: [UInt8])
    case done(transfer: UInt32)
    case error(transfer: UInt32, failure: SparkTransferFailure)

    /// The kind byte of the header.
    public var kind: UInt8 {
        switch self {
        case .hello: 1
        case .offer: 2
        case .accept: 3
        case .decline: 4
        case .end: 5
        case .channelOpen: 6
        case .channelClose: 7
        case .streamBlock: 8
        case .transferHeader: 9
        case .chunk: 10
        case .done: 11
        case .error: 12
        }
    }
}

/// A frame with its header: the unit carried in one CoC SDU.
public struct SparkEnvelope: Hashable, Sendable {
    /// version, kind, origin (1 each), connection (4), body length (2).
    public static let headerBytes = 9
    /// Bytes a chunk frame adds around its data: the header and the transfer id.
    public static let chunkOverhead = headerBytes + 4

    public var origin: SparkOrigin
    public var connection: UInt32
    public var frame: SparkFrame

    public init(origin: SparkOrigin, connection: UInt32, frame: SparkFrame) {
        self.origin = origin
        self.connection = connection
        self.frame = frame
    }

    public var header: SparkHeader { SparkHeader(kind: frame.kind, origin: origin, connection: connection) }
}
