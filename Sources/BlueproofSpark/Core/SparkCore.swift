import BlueproofTransmitter
import Crypto
import Foundation

/// The Spark data-connection engine (spark-data-transfer-readme.md), sans I/O: frames come in
/// through `receive(_:from:)`, go out through `nextFrame(for:)` when the link has room (L2CAP
/// credits), files through the injected source and sink, time from the injected clock. Every
/// state change is a `SparkEvent`, taken with `takeEvents()`. Not `Sendable` (it holds
/// running SHA-256 states): an adapter keeps it in one `Mutex`.
public struct SparkCore {
    public let configuration: SparkConfiguration
    let clock: any TransmitterTimeSource
    let source: any SparkFileSource
    let sink: any SparkFileSink

    /// Keys on record per peer ("readUserKey").
    var keys: [UInt64: [UInt8]] = [:]
    var connections: [SparkConnectionID: ConnectionRecord] = [:]
    var queues: [UInt64: PeerQueue] = [:]
    var events: [SparkEvent] = []
    var nextConnection: UInt32 = 1
    /// Whether the single-connection app has held a connection (for the `busyNeverFreed` variant only).
    var heldBefore = false
    /// Receive callbacks of ended connections, by id (for the `callbacksOutliveConnection` variant only).
    var endedCallbacks: [SparkConnectionID: (data: Bool, file: Bool)] = [:]
    var nextSend: UInt64 = 1

    public init(configuration: SparkConfiguration, clock: any TransmitterTimeSource, source: any SparkFileSource, sink: any SparkFileSink) {
        self.configuration = configuration
        self.clock = clock
        self.source = source
        self.sink = sink
        if configuration.defects.contains(.offersFromZero) { nextConnection = 0 }
    }

    /// The events since the last call, oldest first.
    public mutating func takeEvents() -> [SparkEvent] {
        defer { events = [] }
        return events
    }

    /// The state of a live connection; `nil` once it ended.
    public func state(of connection: SparkConnectionID) -> SparkConnectionState? { connections[connection]?.state }

    /// Live connections.
    public var liveConnections: [SparkConnectionID] { Array(connections.keys) }

    /// Peers with frames waiting for `nextFrame(for:)`.
    public var pendingPeers: [UInt64] { queues.filter { !$0.value.isEmpty }.map(\.key) }

    /// Records a peer's key: the "keys synchronized" precondition ("Starting A Data Connection").
    public mutating func recordKey(_ key: [UInt8], for peer: UInt64) { keys[peer] = key }

    /// Ends every connection with `peer`: its link is gone.
    public mutating func linkLost(_ peer: UInt64) {
        for id in connections.keys where id.peer == peer {
            guard configuration.defects.contains(.linkLossKeepsConnection), let record = connections[id] else {
                tearDown(id, reason: .linkLost, by: .remote, notify: false)
                continue
            }
            for transfer in record.incoming.values { failIncoming(transfer, on: id, error: .connectionEnded(.linkLost)) }
            connections[id]?.incoming = [:]
        }
        queues[peer] = nil
    }

    /// Ends outgoing offers whose timeout passed (call when the clock moves).
    public mutating func tick() {
        let now = clock.now()
        for (id, record) in connections where record.state == .offering {
            if let deadline = record.deadline, deadline <= now { tearDown(id, reason: .timeout, by: .local, notify: true) }
        }
    }

    // MARK: helpers shared by the extensions

    /// The origin byte for frames this side sends on `id`.
    func envelope(_ id: SparkConnectionID, _ frame: SparkFrame) -> SparkEnvelope {
        SparkEnvelope(origin: id.outgoing ? .sender : .receiver, connection: id.number, frame: frame)
    }

    /// Queues a control frame (offer, answers, channel open/close, transfer errors): these go
    /// before bulk data so ending is never stuck behind a file.
    mutating func sendControl(_ id: SparkConnectionID, _ frame: SparkFrame) {
        // Control frames are built from validated fields; one that fails to encode is a bug
        // surfaced as the frame not sent rather than a trap.
        guard let bytes = try? envelope(id, frame).encoded() else { return }
        queues[id.peer, default: PeerQueue()].control.append(bytes)
        if configuration.defects.contains(.strayFrames) { queues[id.peer, default: PeerQueue()].control.append([SparkLimits.version &+ 1] + bytes.dropFirst()) }
    }

    mutating func newSendID() -> UInt64 {
        defer { nextSend += 1 }
        return nextSend
    }

    /// Ends a connection: cancels its pending sends, fails its incoming transfers, forgets it,
    /// reports `ended`; with `notify`, tells the peer (`end`, or `decline` before acceptance).
    mutating func tearDown(_ id: SparkConnectionID, reason: SparkEndReason, by side: SparkSide, notify: Bool) {
        guard let record = connections.removeValue(forKey: id) else { return }
        if configuration.defects.contains(.callbacksOutliveConnection) { endedCallbacks[id] = (record.dataCallback, record.fileCallback) }
        if notify {
            var declining = !id.outgoing && record.state != .accepted
            if configuration.defects.contains(.withdrawalDeclined) { declining = record.state != .accepted }
            sendControl(id, declining ? .decline(reason) : .end(reason))
        }
        if reason == .ended && configuration.defects.contains(.endKeepsTransfers) { return events.append(.ended(id, reason, by: side)) }
        if configuration.defects.contains(.cancelledSendsDelivered) || configuration.defects.contains(.cancelledSendsFlushed) {
            // The faults: the blocks still queued go out anyway, behind the end (as if already
            // written to the link) or ahead of it (a write buffer flushed before the close).
            var frames: [[UInt8]] = []
            for case let .stream(_, connection, channel, bytes) in queues[id.peer]?.bulk ?? [] where connection == id {
                for start in stride(from: 0, to: bytes.count, by: configuration.chunkBytes) {
                    let piece = Array(bytes[start..<min(start + configuration.chunkBytes, bytes.count)])
                    if let frame = try? envelope(id, .streamBlock(channel: channel, bytes: piece)).encoded() { frames.append(frame) }
                }
            }
            let at = max(0, (queues[id.peer]?.control.count ?? 0) - (configuration.defects.contains(.cancelledSendsFlushed) ? 1 : 0))
            queues[id.peer]?.control.insert(contentsOf: frames, at: at)
        }
        if !configuration.defects.contains(.endKeepsSends) { cancelSends(on: id, matching: { _ in true }, error: .connectionEnded(reason)) }
        for transfer in record.incoming.values {
            if reason == .linkLost && configuration.defects.contains(.completeOnLinkLoss), !transfer.ignored {
                report(transfer, on: id, complete: true, error: nil, path: transfer.handle.flatMap { try? sink.commit($0) })
            } else {
                failIncoming(transfer, on: id, error: .connectionEnded(reason))
            }
        }
        events.append(.ended(id, reason, by: side))
    }

    /// Removes queued sends of `id` that `matching` selects, each reported failed with `error`
    /// (unless `report` is false, for broken variants); returns how many it removed.
    @discardableResult
    mutating func cancelSends(on id: SparkConnectionID, matching: (OutgoingItem) -> Bool, error: SparkTransferError, report: Bool = true) -> Int {
        guard var queue = queues[id.peer] else { return 0 }
        var kept: [OutgoingItem] = []
        for item in queue.bulk {
            if item.connection == id && matching(item) {
                guard report else { continue }
                var fraction = item.fraction
                if configuration.defects.contains(.cancelledProgressInBytes), case .transfer(let transfer) = item { fraction = Double(transfer.offset) }
                events.append(.sendProgress(id, send: item.send, SparkProgress(fraction: fraction, done: false, error: error)))
            } else {
                kept.append(item)
            }
        }
        let removed = queue.bulk.count - kept.count
        queue.bulk = kept
        queues[id.peer] = queue
        return removed
    }
}

/// One live connection's state.
struct ConnectionRecord {
    var state: SparkConnectionState
    var deadline: Date?
    var dataCallback = false
    var fileCallback = false
    /// Next channel or transfer id this side gives: offerer even, callee odd, so the two
    /// sides never pick the same one.
    var nextLocalID: UInt32
    var channels: [UInt32: String] = [:]
    var incoming: [UInt32: IncomingTransfer] = [:]
    var queuedStreamBytes = 0

    init(state: SparkConnectionState, outgoing: Bool, deadline: Date? = nil) {
        self.state = state
        self.deadline = deadline
        nextLocalID = outgoing ? 2 : 1
    }

    mutating func takeLocalID() -> UInt32 {
        defer { nextLocalID &+= 2 }
        return nextLocalID
    }
}

/// What waits to go to one peer.
struct PeerQueue: Sendable {
    var control: [[UInt8]] = []
    var bulk: [OutgoingItem] = []
    var isEmpty: Bool { control.isEmpty && bulk.isEmpty }
}

/// A queued send.
enum OutgoingItem: Sendable {
    case stream(send: UInt64, connection: SparkConnectionID, channel: UInt32, bytes: [UInt8])
    case transfer(OutgoingTransfer)

    var connection: SparkConnectionID {
        switch self {
        case .stream(_, let connection, _, _): connection
        case .transfer(let transfer): transfer.connection
        }
    }

    var send: UInt64 {
        switch self {
        case .stream(let send, _, _, _): send
        case .transfer(let transfer): transfer.send
        }
    }

    var fraction: Double? {
        switch self {
        case .stream: nil
        case .transfer(let transfer): transfer.fraction
        }
    }
}

/// A data block or file on its way out.
struct OutgoingTransfer: Sendable {
    enum Body: Sendable {
        case memory([UInt8])
        case file(String)
    }

    var send: UInt64
    var connection: SparkConnectionID
    var header: SparkTransferHeader
    var body: Body
    var headerSent = false
    var offset: UInt64 = 0

    var fraction: Double { header.size == 0 ? 1 : Double(offset) / Double(header.size) }
}

/// A data block or file on its way in.
struct IncomingTransfer {
    var header: SparkTransferHeader
    var received: UInt64 = 0
    var hasher = SHA256()
    var buffer: [UInt8] = []
    var handle: SparkSinkHandle?
    /// Arrived before the receive callback was set: consumed silently ("Receiving Data").
    var ignored: Bool

    var fraction: Double { header.size == 0 ? 1 : Double(received) / Double(header.size) }
}
