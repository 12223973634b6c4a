import BlueproofAsync
import BlueproofWire
import Dispatch
import Logging

/// A transport whose sends go through a bounded queue to a writer thread of its own, so that
/// no caller ever waits for the peer to read. A peer that stops reading fills its socket, then
/// this queue; the send past ``Limit`` throws ``TransportError/backlogFull(endpoint:packets:bytes:)``
/// naming the limit, the queue is dropped and the link closed (which frees the writer): the link
/// is faulted, and every later send throws the same error. The memory held is at most the limit.
///
/// A failure of the underlying send ends the writer too; later sends throw it, as an
/// ``HCITransport`` does after its link ended.
public final class QueuedTransport: HCITransport {
    /// How much may wait for the peer: whichever of packets or bytes is reached first.
    public struct Limit: Hashable, Sendable {
        public var packets: Int
        public var bytes: Int

        public init(packets: Int, bytes: Int) {
            self.packets = packets
            self.bytes = bytes
        }

        /// 1,024 packets or 1 MiB: far more than a controller's buffers take (a few dozen ACL
        /// packets), so only a peer that stopped reading reaches it.
        public static let standard = Limit(packets: 1024, bytes: 1 << 20)
    }

    /// The link underneath.
    public let inner: any HCITransport
    public let limit: Limit
    private let core: QueueCore

    /// Starts the writer thread. Should the system have no thread for it, every send throws
    /// why (`pthread_create`).
    public init(_ inner: any HCITransport, limit: Limit = .standard) {
        self.inner = inner
        self.limit = limit
        let core = QueueCore(inner: inner, limit: limit)
        self.core = core
        let code = startDetachedThread { core.run() }
        if code != 0 { core.state.update { $0.failure = .io(operation: "pthread_create", errno: code) } }
    }

    /// The writer thread ends with the last reference (once a write in progress returns: closing
    /// the link underneath frees it); the link itself stays as it is.
    deinit { core.stop(closing: false) }

    public var endpoint: String { inner.endpoint }
    public var inbound: AsyncThrowingStream<H4Packet, any Error> { inner.inbound }

    /// Queues `packet` for the writer; never waits for the peer.
    public func send(_ packet: H4Packet) throws(TransportError) { try core.enqueue(packet) }

    /// Drops what is queued, ends the writer and closes the link underneath.
    public func close() { core.stop(closing: true) }

    /// Whether every queued packet was written (or the link failed) within `timeout`.
    public func drained(within timeout: Duration = .seconds(15)) async -> Bool {
        await core.state.wait(within: timeout) { $0.pending == 0 || $0.failure != nil } != nil
    }

    /// Whether the writer thread has ended within `timeout` (after a failure or ``close()``).
    public func writerEnded(within timeout: Duration = .seconds(15)) async -> Bool {
        await core.state.wait(within: timeout) { $0.writerEnded } != nil
    }
}

/// The queue and its writer thread, kept apart from ``QueuedTransport`` so the thread does not
/// keep the transport alive.
private final class QueueCore: Sendable {
    struct State: Sendable {
        var queue: [H4Packet] = []
        /// Packets and bytes queued or being written.
        var pending = 0
        var bytes = 0
        /// Why sends fail from now on; nil while the link is open.
        var failure: TransportError?
        /// The writer thread returned.
        var writerEnded = false
    }

    let inner: any HCITransport
    let limit: QueuedTransport.Limit
    let state = Watched(State())
    /// Signalled once per queued packet and once at the end; the writer waits on it.
    private let wake = DispatchSemaphore(value: 0)
    private static let logger = Logger(label: "blueproof.transport")

    init(inner: any HCITransport, limit: QueuedTransport.Limit) {
        self.inner = inner
        self.limit = limit
    }

    func enqueue(_ packet: H4Packet) throws(TransportError) {
        let size = packet.payload.count + 1
        let (failure, overflowed) = state.update { state -> (TransportError?, Bool) in
            if let failure = state.failure { return (failure, false) }
            guard state.pending < limit.packets, state.bytes + size <= limit.bytes else {
                state.failure = .backlogFull(endpoint: inner.endpoint, packets: limit.packets, bytes: limit.bytes)
                state.queue = []
                return (state.failure, true)
            }
            state.queue.append(packet)
            state.pending += 1
            state.bytes += size
            return (nil, false)
        }
        if overflowed {
            Self.logger.error("link faulted: the peer stopped reading", metadata: ["endpoint": "\(inner.endpoint)",
                                                                                 "limit": "\(limit.packets) packets, \(limit.bytes) bytes"])
            // Frees the writer from a send the peer will never take.
            inner.close()
            wake.signal()
        } else if failure == nil {
            wake.signal()
        }
        if let failure { throw failure }
    }

    func stop(closing: Bool) {
        state.update { state in
            if state.failure == nil { state.failure = .closed }
            state.queue = []
        }
        if closing { inner.close() }
        wake.signal()
    }

    /// The writer thread: writes batches in order until the link fails or is stopped.
    func run() {
        defer { state.update { $0.writerEnded = true } }
        while true {
            wake.wait()
            let batch: [H4Packet]? = state.update { state in
                guard state.failure == nil else { return nil }
                defer { state.queue = [] }
                return state.queue
            }
            guard let batch else { return }
            for packet in batch {
                do throws(TransportError) {
                    try inner.send(packet)
                } catch {
                    state.update { state in
                        if state.failure == nil { state.failure = error }
                        state.queue = []
                    }
                    return
                }
                state.update { state in
                    state.pending -= 1
                    state.bytes -= packet.payload.count + 1
                }
            }
        }
    }
}
