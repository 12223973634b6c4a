import BlueproofAsync
import BlueproofTransport
import BlueproofWire
import Logging

/// The host's side of one controller: sends commands under HCI flow control
/// (``HCICommandFlow``), matches their answers, and hands every event to subscribers.
///
/// It reads the transport continuously from ``start()`` on. When the link ends, every waiting
/// command fails with ``HCICommandError/controllerGone(reason:)`` and event streams finish.
public actor HCIController {
    public nonisolated let transport: any HCITransport
    public nonisolated var endpoint: String { transport.endpoint }
    /// How long a command may wait for Command Complete or Command Status.
    public let commandTimeout: Duration
    private let clock: any Clock<Duration>
    private let logger: Logger

    private var flow = HCICommandFlow()
    private var answers: [HCICommandFlow.Ticket: OneShot<Result<HCICommandFlow.Answer, HCICommandError>>] = [:]
    private var subscribers: [UInt64: AsyncStream<HCIEvent>.Continuation] = [:]
    private var inboundSubscribers: [UInt64: AsyncStream<HCIInbound>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var reader: Task<Void, Never>?
    private let ended = OneShot<String>()
    /// Protocol violations seen on this link (unsolicited answers, undecodable events), in order.
    public private(set) var violations: [String] = []

    public init(transport: any HCITransport, commandTimeout: Duration = .seconds(5),
                clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.transport = transport
        self.commandTimeout = commandTimeout
        self.clock = clock
        var logger = logger ?? Logger(label: "blueproof.hci")
        logger[metadataKey: "controller"] = "\(transport.endpoint)"
        self.logger = logger
    }

    /// Starts reading the transport. Call once, before sending.
    public func start() {
        guard reader == nil else { return }
        let inbound = transport.inbound
        reader = Task {
            do {
                for try await packet in inbound { self.receive(packet) }
                self.linkEnded("the link was closed")
            } catch {
                self.linkEnded("\(error)")
            }
        }
    }

    /// Why the link ended, once it has.
    public nonisolated var endReason: String? { ended.current }

    /// Waits until the link ends; nil when the waiting task is cancelled.
    public nonisolated func waitForEnd() async -> String? { await ended.wait() }

    /// Closes the link; waiting commands fail and event streams finish.
    public func close() {
        transport.close()
        linkEnded("closed by the host")
    }

    // MARK: Commands

    /// Sends `command` and returns its return parameters; a status other than success throws
    /// ``HCICommandError/failed(command:status:)``. For commands answered by Command Status, the
    /// return parameters hold that status only.
    @discardableResult
    public func send<C: HCICommand>(_ command: C) async throws(HCICommandError) -> C.ReturnParameters {
        let answer = try await submit(command.commandPacket, name: C.name)
        let bytes: [UInt8]
        switch answer {
        case let .status(status): bytes = [status.rawValue]
        case let .complete(returnParameters): bytes = returnParameters
        }
        // A refused command may carry its status alone (btvirt does), so the status decides first.
        if let status = bytes.first.map(HCIStatus.init(rawValue:)), status != .success {
            throw .failed(command: C.name, status: status)
        }
        var reader = ByteReader(bytes, context: "\(C.name) return parameters")
        let result: C.ReturnParameters
        do {
            result = try C.ReturnParameters(returnParameters: &reader)
        } catch {
            throw .malformedReturn(command: C.name, error: error)
        }
        guard result.status == .success else { throw .failed(command: C.name, status: result.status) }
        return result
    }

    /// Sends a command packet as it is and returns the controller's answer, whatever its status.
    public func submit(_ command: HCICommandPacket, name: String) async throws(HCICommandError) -> HCICommandFlow.Answer {
        if let reason = ended.current { throw .controllerGone(reason: reason) }
        let answer = OneShot<Result<HCICommandFlow.Answer, HCICommandError>>()
        let (ticket, actions) = flow.submit(command)
        answers[ticket] = answer
        perform(actions)
        let outcome: Result<HCICommandFlow.Answer, HCICommandError>??
        do {
            outcome = try await withTimeout(commandTimeout, clock: clock, what: name) { await answer.wait() }
        } catch is TimeoutError {
            outcome = nil
        } catch {
            outcome = .some(nil)
        }
        guard let waited = outcome else {
            flow.abandon(ticket)
            answers[ticket] = nil
            logger.warning("no answer to \(name) within \(commandTimeout)")
            throw .timedOut(command: name, limit: commandTimeout)
        }
        guard let result = waited else {
            // Cancelled, not late: the command stays outstanding, so the answer that still
            // comes is taken as its own (and returns the command credit), with no one waiting.
            answers[ticket] = nil
            throw .cancelled(command: name)
        }
        return try result.get()
    }

    // MARK: Events

    /// Every event from now on, until the link ends or the stream is dropped.
    public func events() -> AsyncStream<HCIEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: HCIEvent.self)
        guard ended.current == nil else {
            continuation.finish()
            return stream
        }
        nextSubscriber += 1
        let id = nextSubscriber
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// Subscribes, runs `trigger`, then returns the first event `match` accepts within `limit`.
    @discardableResult
    public func expectEvent<T: Sendable>(
        _ what: String,
        within limit: Duration,
        after trigger: () async throws -> Void = {},
        match: @escaping @Sendable (HCIEvent) -> T?
    ) async throws -> T {
        let stream = events()
        try await trigger()
        return try await firstEvent(in: stream, what, within: limit, clock: clock, match: match)
    }

    /// Every event and ACL data packet from now on, in arrival order, until the link ends or
    /// the stream is dropped. The LE host reads this one.
    public func inbound() -> AsyncStream<HCIInbound> {
        let (stream, continuation) = AsyncStream.makeStream(of: HCIInbound.self)
        guard ended.current == nil else {
            continuation.finish()
            return stream
        }
        nextSubscriber += 1
        let id = nextSubscriber
        inboundSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UInt64) {
        subscribers[id] = nil
        inboundSubscribers[id] = nil
    }

    // MARK: Inbound

    private func receive(_ packet: H4Packet) {
        // Packets still buffered when the host closed the link answer nothing it waits for.
        guard ended.current == nil else { return }
        if packet.type == .acl {
            do {
                let data = try HCIACLPacket(payload: packet.payload)
                for subscriber in inboundSubscribers.values { subscriber.yield(.acl(data)) }
            } catch {
                violation("undecodable ACL data: \(error)")
            }
            return
        }
        guard packet.type == .event else { return }
        let event: HCIEvent
        do {
            event = try HCIEvent(HCIEventPacket(payload: packet.payload))
        } catch {
            violation("undecodable event: \(error)")
            return
        }
        switch event {
        case let .commandComplete(complete):
            perform(flow.commandComplete(opcode: complete.commandOpcode,
                                         numHCICommandPackets: complete.numHCICommandPackets,
                                         returnParameters: complete.returnParameters))
        case let .commandStatus(status):
            perform(flow.commandStatus(opcode: status.commandOpcode,
                                       numHCICommandPackets: status.numHCICommandPackets,
                                       status: status.status))
        default:
            break
        }
        for subscriber in subscribers.values { subscriber.yield(event) }
        for subscriber in inboundSubscribers.values { subscriber.yield(.event(event)) }
    }

    private func perform(_ actions: [HCICommandFlow.Action]) {
        for action in actions {
            switch action {
            case let .send(ticket, command):
                do {
                    try transport.send(command.packet)
                } catch {
                    answers.removeValue(forKey: ticket)?.resolve(.failure(.controllerGone(reason: "\(error)")))
                }
            case let .answer(ticket, answer):
                answers.removeValue(forKey: ticket)?.resolve(.success(answer))
            case let .violation(violation):
                self.violation("\(violation)")
            }
        }
    }

    private func violation(_ text: String) {
        violations.append(text)
        logger.warning("\(text)")
    }

    private func linkEnded(_ reason: String) {
        guard ended.resolve(reason) else { return }
        logger.debug("link ended: \(reason)")
        for ticket in flow.reset() {
            answers.removeValue(forKey: ticket)?.resolve(.failure(.controllerGone(reason: reason)))
        }
        for subscriber in subscribers.values { subscriber.finish() }
        for subscriber in inboundSubscribers.values { subscriber.finish() }
        subscribers.removeAll()
        inboundSubscribers.removeAll()
    }
}

/// The first event of `stream` that `match` accepts, within `limit`. Throws
/// ``HCICommandError/eventTimedOut(what:limit:)``, or ``HCICommandError/controllerGone(reason:)``
/// when the stream ends first.
@discardableResult
public func firstEvent<T: Sendable>(
    in stream: AsyncStream<HCIEvent>,
    _ what: String,
    within limit: Duration,
    clock: any Clock<Duration> = ContinuousClock(),
    match: @escaping @Sendable (HCIEvent) -> T?
) async throws -> T {
    do {
        return try await withTimeout(limit, clock: clock, what: what) {
            for await event in stream {
                if let value = match(event) { return value }
            }
            throw HCICommandError.controllerGone(reason: "the link ended while waiting for \(what)")
        }
    } catch is TimeoutError {
        throw HCICommandError.eventTimedOut(what: what, limit: limit)
    }
}
