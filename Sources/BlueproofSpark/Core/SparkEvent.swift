/// One data connection: the peer, the number its offerer gave it, and whether this side
/// offered it.
public struct SparkConnectionID: Hashable, Sendable, CustomStringConvertible {
    public var peer: UInt64
    public var number: UInt32
    public var outgoing: Bool

    public init(peer: UInt64, number: UInt32, outgoing: Bool) {
        self.peer = peer
        self.number = number
        self.outgoing = outgoing
    }

    public var description: String { "\(outgoing ? "to" : "from") \(peer) #\(number)" }
}

/// Where a connection is ("Listening For Data Connections", "Sending Data").
public enum SparkConnectionState: Hashable, Sendable, CaseIterable {
    /// Outgoing, offer sent, no answer yet.
    case offering
    /// Incoming, `incomingDataConnectionOffered`; set-up not yet complete.
    case offered
    /// Incoming, set up, `incomingDataConnectionAvailable`: waiting for accept or decline.
    case available
    /// `dataConnectionAccepted`: data may flow.
    case accepted
}

/// Which side did it.
public enum SparkSide: Hashable, Sendable, CaseIterable {
    case local
    case remote
}

/// A send's progress, as the sample's `progress, done, error` callback gets it.
public struct SparkProgress: Hashable, Sendable {
    /// Fraction sent, 0...1; `nil` for stream sends ("Progress has no meaning for streams").
    public var fraction: Double?
    public var done: Bool
    public var error: SparkTransferError?

    public init(fraction: Double?, done: Bool, error: SparkTransferError? = nil) {
        self.fraction = fraction
        self.done = done
        self.error = error
    }
}

/// What `dataAvailableCallback` gets: a stream block, or a data block's progress and then its bytes.
public struct SparkChannelData: Hashable, Sendable {
    public enum Kind: Hashable, Sendable, CaseIterable {
        /// `kDataChannelStream`: no size, no progress.
        case stream
        /// `kDataChannelData`: an in-memory block.
        case data
    }

    public var kind: Kind
    /// The channel id (stream) or the transfer id (data).
    public var id: UInt32
    public var description: String
    /// The stream block, or the whole block once `transferComplete`; empty otherwise.
    public var data: [UInt8]
    /// Fraction received for data blocks; `nil` for streams.
    public var progress: Double?
    public var transferComplete: Bool
    public var error: SparkTransferError?

    public init(kind: Kind, id: UInt32, description: String, data: [UInt8], progress: Double?, transferComplete: Bool,
                error: SparkTransferError? = nil) {
        self.kind = kind
        self.id = id
        self.description = description
        self.data = data
        self.progress = progress
        self.transferComplete = transferComplete
        self.error = error
    }
}

/// What `fileAvailableCallback` gets: progress, then the path of the complete file in the
/// cache folder, or an error and no path.
public struct SparkFileData: Hashable, Sendable {
    public var transfer: UInt32
    public var name: String
    public var progress: Double
    public var transferComplete: Bool
    /// Set only when the file is complete and its SHA-256 matched.
    public var path: String?
    public var error: SparkTransferError?

    public init(transfer: UInt32, name: String, progress: Double, transferComplete: Bool, path: String?, error: SparkTransferError? = nil) {
        self.transfer = transfer
        self.name = name
        self.progress = progress
        self.transferComplete = transferComplete
        self.path = path
        self.error = error
    }
}

/// Why a received frame changed nothing.
public enum SparkIgnored: Hashable, Sendable {
    /// Data or file frames before the receive callbacks were set ("Receiving Data": "it will be ignored").
    case noReceiveCallback(SparkConnectionID)
    /// A frame (of `kind`, the header's byte; nil when a device's report names none) for a
    /// connection the receiver does not hold.
    case unknownConnection(number: UInt32, kind: UInt8?)
    /// A `channelClose` or stream block (`kind`, the header's byte; nil when a device's report
    /// names none) for a channel the receiver does not hold open.
    case unknownChannel(SparkConnectionID, UInt32, kind: UInt8?)
    /// A chunk, `done` or `error` for a transfer the receiver does not hold; `failure` is an
    /// `error` frame's reason (nil for the others).
    case unknownTransfer(SparkConnectionID, UInt32, failure: SparkTransferFailure?)
    /// A frame that did not decode.
    case malformed(SparkWireError)
    /// A frame not valid in the connection's state (data before accept, a second accept, ...).
    case unexpected(SparkConnectionID, kind: UInt8)
}

/// Every state change of the core, as the sample's delegate callbacks report them.
public enum SparkEvent: Hashable, Sendable {
    /// An outgoing offer was sent (`startDataConnection`).
    case offering(SparkConnectionID, metadata: String)
    /// `incomingDataConnectionOffered`.
    case offered(SparkConnectionID, metadata: String)
    /// `incomingDataConnectionAvailable`.
    case available(SparkConnectionID)
    /// `dataConnectionAccepted`, on both sides.
    case accepted(SparkConnectionID)
    /// The connection is over; `by` says which side ended it.
    case ended(SparkConnectionID, SparkEndReason, by: SparkSide)
    case channelOpened(SparkConnectionID, channel: UInt32, description: String, by: SparkSide)
    case channelClosed(SparkConnectionID, channel: UInt32, by: SparkSide)
    /// A send's progress callback.
    case sendProgress(SparkConnectionID, send: UInt64, SparkProgress)
    /// `dataAvailableCallback`.
    case dataAvailable(SparkConnectionID, SparkChannelData)
    /// `fileAvailableCallback`.
    case fileAvailable(SparkConnectionID, SparkFileData)
    /// A received frame that changed nothing, and why.
    case ignored(peer: UInt64, SparkIgnored)
}

extension SparkProgress: CustomStringConvertible {
    /// As a fail message quotes it: `done`, `done at 0% sent`, `failed: …`, `40% sent`, or
    /// `under way` (a stream send); `done` names its fraction when it is not 1.
    public var description: String {
        if let error { return "failed: \(error)" }
        if done { return fraction.map { $0 == 1 ? "done" : "done at \(Int(($0 * 100).rounded()))% sent" } ?? "done" }
        return fraction.map { "\(Int(($0 * 100).rounded()))% sent" } ?? "under way"
    }
}

extension SparkEvent: CustomStringConvertible {
    /// As a fail message quotes it, named for the callback, e.g. `ended from 7 #1 (malformed, by the remote side)`.
    public var description: String {
        switch self {
        case .offering(let connection, let metadata): "offering \(connection) with \(metadata.utf8.count) bytes of metadata"
        case .offered(let connection, let metadata): "offered \(connection) with \(metadata.utf8.count) bytes of metadata"
        case .available(let connection): "available \(connection)"
        case .accepted(let connection): "accepted \(connection)"
        case .ended(let connection, let reason, let side): "ended \(connection) (\(reason), by the \(side) side)"
        case .channelOpened(let connection, let channel, let text, let side):
            "channel \(channel) opened on \(connection) by the \(side) side (\"\(text)\")"
        case .channelClosed(let connection, let channel, let side): "channel \(channel) closed on \(connection) by the \(side) side"
        case .sendProgress(let connection, let send, let progress): "send \(send) on \(connection): \(progress)"
        case .dataAvailable(let connection, let data):
            "\(data.kind) \(data.id) on \(connection): \(data.data.count) bytes"
                + (data.transferComplete ? ", complete" : "") + (data.error.map { ", failed: \($0)" } ?? "")
        case .fileAvailable(let connection, let file):
            "file transfer \(file.transfer) (\(file.name)) on \(connection): \(Int((file.progress * 100).rounded()))%"
                + (file.transferComplete ? ", complete" : "") + (file.error.map { ", failed: \($0)" } ?? "")
        case .ignored(let peer, let why): "ignored from \(peer): \(why)"
        }
    }
}
