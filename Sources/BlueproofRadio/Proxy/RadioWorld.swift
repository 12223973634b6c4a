import BlueproofAsync
import BlueproofTransport
import BlueproofWire
import Logging
import Synchronization

/// The radio between the nodes of one run (one backend): sits on every node's host↔controller
/// link and makes the controllers behave as if they were where the scenario puts them, with
/// its RSSI, range and faults. Works on any backend, because it only sees HCI packets.
///
/// Time comes from the injected clock (run time counts from the world's creation), randomness
/// from the scenario's seed. Decisions are made synchronously by a sans-I/O core
/// (``RadioSwitchboard``) under a lock, because ``HCITransport/send(_:)`` is synchronous and
/// must report the link's errors. Nothing waits for a controller under the lock: each
/// controller's packets go through a ``QueuedTransport`` (a writer thread behind a bounded
/// queue), so a controller that stops reading faults its own link (its host's stream ends with
/// ``TransportError/backlogFull(endpoint:packets:bytes:)``, logged as `link-faulted`) and no
/// other node waits. Timers wait in one agenda; a single task sleeps on the clock
/// until the earliest. Whatever happens first at a given time, every timer due by then fires
/// first, in time order and with its own time as "now", so a manual clock that jumps gives the
/// same run as one that creeps.
public final class RadioWorld: Sendable {
    public let scenario: RadioScenario
    private let timeline: Timeline
    private let logger: Logger
    private let state: Mutex<State>

    private struct State: Sendable {
        var board: RadioSwitchboard
        var links: [Int: Link] = [:]
        /// Pending timers: when, and a sequence number that keeps ties in scheduling order.
        var agenda: [RadioTimer: (at: Duration, sequence: UInt64)] = [:]
        var sequence: UInt64 = 0
        /// The task sleeping until the earliest timer, and that timer's time.
        var armed: (at: Duration, task: Task<Void, Never>)?
        var logged = 0
        var closed = false
        /// Nodes whose controller stopped reading (their send queue overflowed).
        var faulted: [Int: TransportError] = [:]
        /// Streams of fault-log entries (``RadioWorld/faultLogEntries()``), by subscriber.
        var watchers: [UInt64: AsyncStream<RadioFaultLogEntry>.Continuation] = [:]
        var nextWatcher: UInt64 = 0

        var earliest: (timer: RadioTimer, at: Duration)? {
            agenda.min { ($0.value.at, $0.value.sequence) < ($1.value.at, $1.value.sequence) }.map { ($0.key, $0.value.at) }
        }
    }

    private struct Link: Sendable {
        let inner: QueuedTransport
        let host: AsyncThrowingStream<H4Packet, any Error>.Continuation
    }

    /// `reemitBacklog`: how late a repeated advertising report may fire before its missed
    /// repetitions are dropped (nil: never; a manual clock that jumps wants every repetition).
    /// `sendLimit`: how much may wait for one controller before its link counts as faulted.
    public init(scenario: RadioScenario, clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil,
                reemitBacklog: Duration? = RadioWorld.defaultReemitBacklog,
                sendLimit: QueuedTransport.Limit = .standard) {
        self.scenario = scenario
        self.reemitBacklog = reemitBacklog
        self.sendLimit = sendLimit
        timeline = Timeline(clock)
        self.logger = logger ?? Logger(label: "blueproof.radio")
        let board = RadioSwitchboard(scenario: scenario)
        state = Mutex(State(board: board))
        state.withLock { state in
            perform(board.start(), &state)
            arm(&state)
        }
    }

    /// Puts node `node` (its index in the scenario) on `transport`; the returned transport is
    /// what the node's host uses. The node's address is read from the Read BD_ADDR answer that
    /// passes, unless given here.
    public func attach(node: Int, to transport: any HCITransport, address: BDAddress? = nil) -> any HCITransport {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4Packet.self, throwing: (any Error).self)
        let queued = QueuedTransport(transport, limit: sendLimit)
        state.withLock { state in
            state.links[node] = Link(inner: queued, host: continuation)
            let now = catchUp(&state)
            perform(state.board.attach(node: node, address: address, now: now), &state)
            arm(&state)
        }
        let inbound = transport.inbound
        let pump = Task { [weak self] in
            var failure: (any Error)?
            do {
                for try await packet in inbound { self?.received(packet, at: node) }
            } catch {
                failure = error
            }
            // A faulted link was closed by its queue: the host learns the fault, not the close.
            continuation.finish(throwing: self?.state.withLock { $0.faulted[node] } ?? failure)
        }
        continuation.onTermination = { _ in pump.cancel() }
        return RadioProxyTransport(world: self, node: node, inner: queued, inbound: stream)
    }

    /// Sets a node's address, for controllers whose Read BD_ADDR the world does not see.
    public func setAddress(_ address: BDAddress, of node: Int) {
        state.withLock { $0.board.setAddress(address, of: node) }
    }

    /// Whether every packet sent towards the controllers has been written (or their link
    /// failed) within `timeout`.
    public func drained(within timeout: Duration = .seconds(15)) async -> Bool {
        for link in state.withLock({ Array($0.links.values) }) where !(await link.inner.drained(within: timeout)) {
            return false
        }
        return true
    }

    /// Every fault and decision so far, in order, for the run's report.
    public var faultLog: [RadioFaultLogEntry] { state.withLock { $0.board.log } }

    /// Every fault-log entry: those recorded so far, then each as it is recorded, so a test
    /// can wait for an injected fault instead of polling ``faultLog``. Ends at ``shutdown()``.
    public func faultLogEntries() -> AsyncStream<RadioFaultLogEntry> {
        let (stream, continuation) = AsyncStream.makeStream(of: RadioFaultLogEntry.self)
        let id: UInt64? = state.withLock { state in
            for entry in state.board.log[..<state.logged] { continuation.yield(entry) }
            guard !state.closed else { return nil }
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            return state.nextWatcher
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Called by the consumer's side (cancellation, or the stream dropped), or by finish()
        // in shutdown(), which calls it outside the lock.
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Drops every timer; packets still pass, but nothing scripted happens any more.
    public func shutdown() {
        let (task, watchers) = state.withLock { state in
            state.closed = true
            state.agenda.removeAll()
            defer {
                state.armed = nil
                state.watchers = [:]
            }
            return (state.armed?.task, Array(state.watchers.values))
        }
        task?.cancel()
        for watcher in watchers { watcher.finish() }
    }

    deinit {
        state.withLock { $0.armed?.task }?.cancel()
    }

    // MARK: Driving the core

    func send(_ packet: H4Packet, from node: Int) throws(TransportError) {
        try state.withLock { state throws(TransportError) in
            let now = catchUp(&state)
            defer { arm(&state) }
            try perform(state.board.outbound(packet, from: node, now: now), &state, sender: node)
        }
    }

    private func received(_ packet: H4Packet, at node: Int) {
        state.withLock { state in
            let now = catchUp(&state)
            perform(state.board.inbound(packet, at: node, now: now), &state)
            arm(&state)
        }
    }

    private func wake() {
        state.withLock { state in
            state.armed = nil
            _ = catchUp(&state)
            arm(&state)
        }
    }

    /// How far behind the clock a repeated advertising report may fall, by default, before its
    /// missed repetitions are dropped.
    public static let defaultReemitBacklog: Duration = .seconds(1)
    private let reemitBacklog: Duration?
    private let sendLimit: QueuedTransport.Limit

    /// Fires every timer due by the clock's time, earliest first, each at its own time;
    /// returns the clock's time. A re-emission more than `reemitBacklog` late fires once, at
    /// the clock's time, instead of once per missed interval: a radio does not make up missed
    /// advertising events, and a proxy starved of the processor that tried would never catch up
    /// (each catch-up costing more time than it covers, while holding the lock).
    private func catchUp(_ state: inout State) -> Duration {
        let now = timeline.elapsed()
        while let (timer, at) = state.earliest, at <= now {
            state.agenda[timer] = nil
            let late = if case .reemit = timer, let reemitBacklog, now - at > reemitBacklog { true } else { false }
            perform(state.board.fired(timer, now: late ? now : at), &state)
        }
        return now
    }

    /// Makes sure a task sleeps until the earliest timer.
    private func arm(_ state: inout State) {
        guard !state.closed, let (_, at) = state.earliest else {
            state.armed?.task.cancel()
            state.armed = nil
            return
        }
        if let armed = state.armed {
            if armed.at == at { return }
            armed.task.cancel()
        }
        let timeline = self.timeline
        state.armed = (at, Task { [weak self] in
            do { try await timeline.sleep(at) } catch { return }
            self?.wake()
        })
    }

    /// Carries out the core's actions in order, under the lock, so deliveries keep the order
    /// the core decided. A failed send of the host's own packet (`sender`) is rethrown.
    private func perform(_ actions: [RadioAction], _ state: inout State, sender: Int? = nil) throws(TransportError) {
        var failure: TransportError?
        for action in actions {
            switch action {
            case let .toHost(node, packet):
                state.links[node]?.host.yield(packet)
            case let .toController(node, packet):
                do {
                    try state.links[node]?.inner.send(packet)
                } catch {
                    if case .backlogFull = error, state.faulted[node] == nil { fault(node, error, &state) }
                    if node == sender, failure == nil { failure = error } else {
                        logger.warning("radio proxy: node \(node): could not send to the controller: \(error)")
                    }
                }
            case let .schedule(timer, at):
                guard !state.closed else { continue }
                state.sequence += 1
                state.agenda[timer] = (at, state.sequence)
            case let .cancel(timer):
                state.agenda[timer] = nil
            }
        }
        let log = state.board.log
        for entry in log[state.logged...] {
            logger.info("radio proxy: \(entry)", metadata: ["node": "\(entry.node)", "fault": "\(entry.kind.rawValue)"])
            for watcher in state.watchers.values { watcher.yield(entry) }
        }
        state.logged = log.count
        if let failure { throw failure }
    }

    /// A controller stopped reading: its link is faulted (the queue towards it dropped and the
    /// link closed by ``QueuedTransport``); its host's stream ends with why, and the fault log says so.
    private func fault(_ node: Int, _ error: TransportError, _ state: inout State) {
        logger.error("radio proxy: node \(node): \(error)")
        state.faulted[node] = error
        state.board.record(timeline.elapsed(), node, .linkFaulted, "\(error)")
        state.links[node]?.host.finish(throwing: error)
    }

    /// ``perform(_:_:sender:)`` for actions no host send waits on.
    private func perform(_ actions: [RadioAction], _ state: inout State) {
        do {
            try perform(actions, &state, sender: nil)
        } catch {
            // Without a sender nothing is rethrown.
        }
    }
}
