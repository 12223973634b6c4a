import BlueproofAsync
import BlueproofHost
import BlueproofWire

/// Which way the payload goes.
public enum TransferDirection: String, Hashable, Sendable {
    /// The sample's way: the peripheral notifies, the central reassembles and writes back.
    case peripheralToCentral = "peripheral-to-central"
    /// Reversed: the central writes chunks without response, the peripheral reassembles and
    /// answers with one notification.
    case centralToPeripheral = "central-to-peripheral"
}

/// The side of a transfer.
public enum TransferRole: String, Hashable, Sendable {
    case peripheral, central
}

/// The receiver's answer once the whole payload arrived: in the sample's direction the central
/// writes it back with Write Without Response ("the central side can write data to a
/// characteristic on the peripheral side", Overview); reversed, the peripheral notifies it.
/// It is one value, cut to ATT_MTU - 3.
public enum TransferReply: Hashable, Sendable {
    /// Nothing: the central writes nothing back (not the sample's way; for runs that judge the
    /// transfer alone). Reversed, an empty notification still goes, as the sender waits for it.
    case none
    /// The first ATT_MTU - 3 bytes of what arrived.
    case echoPrefix
    /// These bytes.
    case bytes([UInt8])

    func value(for payload: [UInt8], chunkSize: Int) -> [UInt8] {
        switch self {
        case .none: []
        case .echoPrefix: Array(payload.prefix(chunkSize))
        case let .bytes(bytes): Array(bytes.prefix(chunkSize))
        }
    }
}

/// Where a transfer stands, for a progress bar.
public struct TransferProgress: Hashable, Sendable {
    /// Data bytes sent or received so far.
    public var bytes: Int
    /// The payload's size when this side knows it (the sender).
    public var total: Int?
    /// Since the first data value.
    public var elapsed: Duration

    public init(bytes: Int, total: Int?, elapsed: Duration) {
        self.bytes = bytes
        self.total = total
        self.elapsed = elapsed
    }

    public var seconds: Double { elapsed.seconds }
    public var bytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds : 0 }
}

/// What one side did, once the transfer ended well.
public struct TransferSummary: Hashable, Sendable {
    public var role: TransferRole
    public var direction: TransferDirection
    /// Whether this side sent the payload (else it received it).
    public var sent: Bool
    public var bytes: Int
    public var mtu: Int
    public var chunkSize: Int
    /// Data values on the air (the marker not counted) and the longest one.
    public var chunks: Int
    public var largestChunk: Int
    public var elapsed: Duration
    /// SHA-256 of the payload sent or received, lower-case hex.
    public var sha256: String
    /// The payload, on the receiving side.
    public var payload: [UInt8]?
    /// The receiver's answer (write-back or reply notification), when this side got it.
    public var reply: [UInt8]?
    public var peer: BDAddress

    public init(role: TransferRole, direction: TransferDirection, sent: Bool, bytes: Int, mtu: Int, chunkSize: Int,
                chunks: Int, largestChunk: Int, elapsed: Duration, sha256: String, payload: [UInt8]?, reply: [UInt8]?,
                peer: BDAddress) {
        self.role = role
        self.direction = direction
        self.sent = sent
        self.bytes = bytes
        self.mtu = mtu
        self.chunkSize = chunkSize
        self.chunks = chunks
        self.largestChunk = largestChunk
        self.elapsed = elapsed
        self.sha256 = sha256
        self.payload = payload
        self.reply = reply
        self.peer = peer
    }

    public var seconds: Double { elapsed.seconds }
    public var bytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds : 0 }
}

/// What a transfer role reports, in order. The stream ends after ``done(_:)`` or ``failed(_:)``.
public enum TransferEvent: Hashable, Sendable {
    /// The peripheral serves the service and advertises its UUID.
    case advertising(service: BluetoothUUID)
    /// The central scans for the service UUID.
    case scanning(service: BluetoothUUID)
    /// The central judged an advertiser's RSSI.
    case gate(address: BDAddress, decision: RSSIGate.Decision)
    case connected(LEConnection)
    /// Subscribed, ATT_MTU in force: the transfer starts with chunks of `chunkSize`.
    case ready(mtu: Int, chunkSize: Int)
    case progress(TransferProgress)
    /// The receiver's answer arrived (see ``TransferReply``).
    case reply([UInt8])
    /// The peripheral refused a write to the transfer characteristic with `error`: a Write
    /// Request was answered with it; a Write Command (`withResponse` false) cannot be
    /// answered (Core Vol 3, Part F §3.4.5.3) and was ignored.
    case writeRefused(length: Int, withResponse: Bool, error: ATTErrorCode)
    /// The central turned notifications off (as the peripheral saw it).
    case unsubscribed
    /// The central left after the transfer: the connection ended for `reason`.
    case disconnected(reason: HCIStatus?)
    case done(TransferSummary)
    case failed(TransferError)

    /// The summary or the error, for a final event.
    public var outcome: Result<TransferSummary, TransferError>? {
        switch self {
        case let .done(summary): .success(summary)
        case let .failed(error): .failure(error)
        default: nil
        }
    }
}

extension AsyncStream<TransferEvent> {
    /// Waits for the final event, passing every other one to `observe`.
    public func outcome(_ observe: (TransferEvent) -> Void = { _ in }) async -> Result<TransferSummary, TransferError> {
        for await event in self {
            if let outcome = event.outcome { return outcome }
            observe(event)
        }
        return .failure(.gatt("the transfer ended without an outcome"))
    }
}

/// Progress reports at most every `interval`, sans I/O: a 16 MB transfer in 20-byte chunks
/// would otherwise flood its consumer.
struct TransferMeter: Sendable {
    var interval: Duration = .milliseconds(100)
    private var lastReport: Duration?

    /// The progress to report now, or nil when the last report is too recent.
    mutating func update(_ progress: TransferProgress) -> TransferProgress? {
        if let lastReport, progress.elapsed - lastReport < interval { return nil }
        lastReport = progress.elapsed
        return progress
    }
}
