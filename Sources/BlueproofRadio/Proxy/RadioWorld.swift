import BlueproofTransport
import BlueproofWire
import Logging
import Synchronization

/// The radio between the nodes of one run (one backend): sits on every node's host↔controller
/// link and makes the controllers behave as if they were where the scenario puts them, with
/// its RSSI, range and faults. Works on any backend, because it only sees HCI packets.
///
/// Time comes from the injected clock (run time counts from the world's creation), randomness
/// from the scenario's seed. Decisions are made synchronously by a sans-I/O core under a lock
/// (``HCITransport/send(_:)`` is synchronous and must report the link's errors); timers are
/// tasks sleeping on the clock.
public final class RadioWorld: Sendable {
    public let scenario: RadioScenario
    private let timeline: RadioTimeline
    private let logger: Logger
    private let state: Mutex<State>

    private struct State: Sendable {
        var board: RadioSwitchboard
        var links: [Int: Link] = [:]
        var timers: [RadioTimer: (token: UInt64, task: Task<Void, Never>)] = [:]
        var nextToken: UInt64 = 0
        var logged = 0
        var closed = false
    }

    private struct Link: Sendable {
        let inner: any HCITransport
        let host: AsyncThrowingStream<H4Packet, any Error>.Continuation
    }

    public init(scenario: RadioScenario, clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.scenario = scenario
        timeline = RadioTimeline(clock)
        self.logger = logger ?? Logger(label: "blueproof.radio")
        let board = RadioSwitchboard(scenario: scenario)
        state = Mutex(State(board: board))
        state.withLock { state in perform(board.start(), &state) }
    }

    /// Puts node `node` (its index in the scenario) on `transport`; the returned transport is
    /// what the node's host uses. The node's address is read from the Read BD_ADDR answer that
    /// passes, unless given here.
    public func attach(node: Int, to transport: any HCITransport, address: BDAddress? = nil) -> any HCITransport {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4Packet.self, throwing: (any Error).self)
        state.withLock { state in
            state.links[node] = Link(inner: transport, host: continuation)
            perform(state.board.attach(node: node, address: address, now: timeline.now()), &state)
        }
        let inbound = transport.inbound
        let pump = Task { [weak self] in
            do {
                for try await packet in inbound { self?.received(packet, at: node) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return RadioProxyTransport(world: self, node: node, inner: transport, inbound: stream)
    }

    /// Sets a node's address, for controllers whose Read BD_ADDR the world does not see.
    public func setAddress(_ address: BDAddress, of node: Int) {
        state.withLock { $0.board.setAddress(address, of: node) }
    }

    /// Every fault and decision so far, in order, for the run's report.
    public var faultLog: [RadioFaultLogEntry] { state.withLock { $0.board.log } }

    /// Cancels every timer; packets still pass, but nothing scripted happens any more.
    public func shutdown() {
        let tasks = state.withLock { state in
            state.closed = true
            defer { state.timers.removeAll() }
            return state.timers.values.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    deinit {
        for timer in state.withLock({ $0.timers.values }) { timer.task.cancel() }
    }

    // MARK: Driving the core

    func send(_ packet: H4Packet, from node: Int) throws(TransportError) {
        try state.withLock { state throws(TransportError) in
            try perform(state.board.outbound(packet, from: node, now: timeline.now()), &state, sender: node)
        }
    }

    private func received(_ packet: H4Packet, at node: Int) {
        state.withLock { state in perform(state.board.inbound(packet, at: node, now: timeline.now()), &state) }
    }

    private func fire(_ timer: RadioTimer, token: UInt64) {
        state.withLock { state in
            guard state.timers[timer]?.token == token else { return }
            state.timers[timer] = nil
            perform(state.board.fired(timer, now: timeline.now()), &state)
        }
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
                    if node == sender, failure == nil { failure = error } else {
                        logger.warning("radio proxy: node \(node): could not send to the controller: \(error)")
                    }
                }
            case let .schedule(timer, at):
                guard !state.closed else { continue }
                state.timers[timer]?.task.cancel()
                state.nextToken += 1
                let token = state.nextToken
                let timeline = self.timeline
                let task = Task { [weak self] in
                    do { try await timeline.sleep(at) } catch { return }
                    self?.fire(timer, token: token)
                }
                state.timers[timer] = (token, task)
            case let .cancel(timer):
                state.timers.removeValue(forKey: timer)?.task.cancel()
            }
        }
        let log = state.board.log
        for entry in log[state.logged...] {
            logger.info("radio proxy: \(entry)", metadata: ["node": "\(entry.node)", "fault": "\(entry.kind.rawValue)"])
        }
        state.logged = log.count
        if let failure { throw failure }
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
