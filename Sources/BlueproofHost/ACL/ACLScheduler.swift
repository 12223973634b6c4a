import BlueproofTransport
import BlueproofWire
import Logging
import Synchronization

/// The host's ``ACLFlow`` and the writes it allows, shared by the host's actor and the
/// transport's reader thread (Core Vol 4, Part E §4.1.1).
///
/// Number Of Completed Packets (§7.7.19) frees buffers; when the transport has a reader
/// thread, the fragments waiting for them are written from that thread as soon as it reads
/// the event (``observe(_:)``), not after the event has reached the host's actor. On a
/// controller with one buffer (btvirt) every packet waits for that turnaround.
///
/// The flow and the writes it decides are under one lock, so packets leave in the order the
/// flow released them, whichever thread writes. The lock is held across a write, which
/// cannot wait long: see ``readerThreadLimit``.
final class ACLScheduler: Sendable {
    private struct State {
        var flow: ACLFlow
        /// Completions that broke the rules, until the actor takes them.
        var violations: [ACLFlowViolation] = []
    }

    /// The most buffers, and bytes in them, for which completions are handled on the reader
    /// thread. A write from that thread should not wait for room, since the thread is then not
    /// reading; the flow keeps at most this much ACL data (and one command) unread by the
    /// controller, well within a socket's buffer. Larger controllers are served by the actor.
    static let readerThreadLimit = (buffers: 32, bytes: 8192)

    private let state: Mutex<State>
    private let transport: any HCITransport
    private let logger: Logger
    /// Whether the reader thread sees completions first (``observe(_:)`` installed).
    private let tapped = Atomic<Bool>(false)

    init(flow: ACLFlow, transport: any HCITransport, logger: Logger) {
        state = Mutex(State(flow: flow))
        self.transport = transport
        self.logger = logger
    }

    /// Installs ``observe(_:)`` as the transport's inbound tap; false when it has none, or
    /// the controller's buffers exceed ``readerThreadLimit``.
    func tapTransport() -> Bool {
        let (count, size) = state.withLock { ($0.flow.bufferCount, $0.flow.bufferSize) }
        let installed = count <= Self.readerThreadLimit.buffers
            && count * (size + 5) <= Self.readerThreadLimit.bytes
            && transport.tapInbound { [weak self] packet in self?.observe(packet) }
        tapped.store(installed, ordering: .sequentiallyConsistent)
        return installed
    }

    /// Whether completions are already counted when they reach the actor.
    var completesOnReaderThread: Bool { tapped.load(ordering: .sequentiallyConsistent) }

    /// The reader thread's view, decoded as the host's controller decodes it: a Number Of
    /// Completed Packets frees buffers at once. A Disconnection Complete, or an LE Connection
    /// Complete for a handle still open here (a reused handle), holds that handle's fragments
    /// until the actor handles the event (``close(handle:)``): they belong to a connection
    /// that ended and must not reach the new one.
    private func observe(_ packet: H4Packet) {
        guard packet.type == .event else { return }
        if packet.payload.first == HCINumberOfCompletedPacketsEvent.code {
            guard case let .numberOfCompletedPackets(completed)? = try? HCIEvent(HCIEventPacket(payload: packet.payload)) else { return }
            for entry in completed.handles {
                self.completed(Int(entry.numCompletedPackets), on: entry.connectionHandle)
            }
        } else if let change = HCIConnectionChange(eventPayload: packet.payload) {
            let handle = switch change { case let .opened(handle), let .ended(handle): handle }
            state.withLock { _ = $0.flow.pause(handle: handle, for: .endRead) }
        }
    }

    func open(handle: UInt16) {
        state.withLock { $0.flow.open(handle: handle) }
    }

    /// Holds `handle`'s fragments while the controller is asked to disconnect it.
    func hold(handle: UInt16) {
        state.withLock { _ = $0.flow.pause(handle: handle, for: .disconnecting) }
    }

    /// The controller refused the disconnection: `handle`'s fragments go on, unless its end
    /// has been read meanwhile (``ACLFlow/HoldReason/endRead``).
    func release(handle: UInt16) {
        state.withLock { write($0.flow.resume(handle: handle, from: .disconnecting)) }
    }

    /// Disconnection Complete: drops `handle`'s queue and writes what that frees for others.
    func close(handle: UInt16) {
        state.withLock { write($0.flow.close(handle: handle).packets) }
    }

    /// Queues a whole L2CAP PDU on `handle` and writes the fragments buffers allow now.
    func send(_ pdu: [UInt8], on handle: UInt16) throws(ACLFlowViolation) {
        try state.withLock { state throws(ACLFlowViolation) in
            write(try state.flow.send(pdu, on: handle))
        }
    }

    /// Number Of Completed Packets for one handle: frees buffers and writes what waited.
    func completed(_ count: Int, on handle: UInt16) {
        state.withLock { state in
            let result = state.flow.completed(count, on: handle)
            if let violation = result.violation { state.violations.append(violation) }
            write(result.packets)
        }
    }

    /// The completions that broke the rules since the last call.
    func takeViolations() -> [ACLFlowViolation] {
        state.withLock { state in
            defer { state.violations.removeAll() }
            return state.violations
        }
    }

    func queuedPDUs(on handle: UInt16) -> Int { state.withLock { $0.flow.queuedPDUs(on: handle) } }
    func pdusQueued(on handle: UInt16) -> Int { state.withLock { $0.flow.pdusQueued(on: handle) } }
    func pdusCompleted(on handle: UInt16) -> Int { state.withLock { $0.flow.pdusCompleted(on: handle) } }

    /// Writes packets in order; called under the lock. A write failure means the controller
    /// is gone, which the inbound stream reports.
    private func write(_ packets: [HCIACLPacket]) {
        for packet in packets {
            do {
                try transport.send(packet.packet)
            } catch {
                logger.debug("ACL write failed: \(error)")
                return
            }
        }
    }
}
