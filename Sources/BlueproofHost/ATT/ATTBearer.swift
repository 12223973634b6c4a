import BlueproofWire

/// One ATT bearer (a connection's ATT channel) as a sans-I/O state machine
/// (Core Vol 3, Part F §3.3).
///
/// - ATT_MTU starts at 23 (§3.2.8, LE) and after an Exchange MTU, either way round, is the
///   smaller of both sides' receive MTUs, never below 23 (§3.4.2).
/// - Client side: one request outstanding at a time (§3.3.2); later ones wait in a queue.
///   A response answers the outstanding request when its opcode is the request's response
///   opcode, or an Error Response naming the request's opcode.
/// - Server side: requests and commands are passed out; Exchange MTU is answered here.
///   One indication outstanding at a time; a confirmation lets the next one out.
/// - Every request and indication is a transaction with a 30-second timeout (§3.3.3). When
///   one expires the bearer is dead: it sends nothing more and fails every request.
///
/// The caller feeds in time as `now`, and calls ``tick(now:)`` at ``deadline``.
public struct ATTBearer: Sendable {
    /// The default and smallest ATT_MTU on LE (Vol 3, Part F §3.2.8).
    public static let defaultMTU = 23
    /// The transaction timeout (Vol 3, Part F §3.3.3).
    public static let transactionTimeout: Duration = .seconds(30)

    /// Time as the caller's clock has run since a fixed start (the host's start).
    public typealias Instant = Duration

    /// The largest ATT PDU this side can receive, offered in Exchange MTU.
    public let rxMTU: Int
    /// The ATT_MTU in force.
    public private(set) var mtu: Int = ATTBearer.defaultMTU
    /// True after a transaction timed out or ``close()``: nothing is sent any more.
    public private(set) var isDead = false

    private struct Outstanding: Sendable {
        var id: RequestID
        var pdu: ATTPDU
        var deadline: Instant
    }

    private var nextID: UInt64 = 0
    private var queued: [(RequestID, ATTPDU)] = []
    private var outstanding: Outstanding?
    private var queuedIndications: [ATTPDU] = []
    private var indicationDeadline: Instant?
    /// Requests from the peer not yet answered.
    private var inboundRequests = 0
    /// An indication from the peer not yet confirmed.
    private var unconfirmedIndication = false

    /// `rxMTU` is clamped to 23...65535.
    public init(rxMTU: Int = 517) {
        self.rxMTU = min(max(rxMTU, Self.defaultMTU), Int(UInt16.max))
    }

    /// When the earliest transaction times out; nil when none is under way.
    public var deadline: Instant? {
        [outstanding?.deadline, indicationDeadline].compactMap { $0 }.min()
    }

    /// Requests waiting behind the outstanding one.
    public var queuedCount: Int { queued.count }
    /// True while a request of ours waits for its response.
    public var hasOutstandingRequest: Bool { outstanding != nil }
    /// True while an indication of ours waits for its confirmation.
    public var hasOutstandingIndication: Bool { indicationDeadline != nil }

    // MARK: - Client side

    /// Submits a request; it is sent at once when none is outstanding, otherwise when the
    /// outstanding one is answered.
    public mutating func request(_ pdu: ATTPDU, now: Instant) -> (RequestID, [Action]) {
        nextID += 1
        let id = RequestID(rawValue: nextID)
        guard pdu.kind == .request else { return (id, [.failed(id, .notARequest)]) }
        guard !isDead else { return (id, [.failed(id, .bearerClosed)]) }
        queued.append((id, pdu))
        return (id, drainRequests(now: now))
    }

    /// Sends a command (Write Command and the like) at once; nothing answers it.
    public mutating func command(_ pdu: ATTPDU) -> [Action] {
        isDead ? [] : [.send(pdu)]
    }

    /// Confirms the indication last delivered (Vol 3, Part F §3.4.7.3); nothing when none
    /// waits for confirmation.
    public mutating func confirm() -> [Action] {
        guard !isDead, unconfirmedIndication else { return [] }
        unconfirmedIndication = false
        return [.send(.handleValueConfirmation)]
    }

    // MARK: - Server side

    /// Answers the request last delivered with ``Action/deliverRequest(_:)``; nothing when
    /// none waits for an answer.
    public mutating func respond(_ pdu: ATTPDU) -> [Action] {
        guard !isDead, inboundRequests > 0 else { return [] }
        inboundRequests -= 1
        return [.send(pdu)]
    }

    /// Sends a Handle Value Notification at once (Vol 3, Part F §3.4.7.1).
    public mutating func notify(handle: UInt16, value: [UInt8]) -> [Action] {
        isDead ? [] : [.send(.handleValueNotification(attributeHandle: handle, attributeValue: value))]
    }

    /// Sends a Handle Value Indication, or queues it while another waits for confirmation
    /// (Vol 3, Part F §3.4.7.2).
    public mutating func indicate(handle: UInt16, value: [UInt8], now: Instant) -> [Action] {
        guard !isDead else { return [] }
        queuedIndications.append(.handleValueIndication(attributeHandle: handle, attributeValue: value))
        return drainIndications(now: now)
    }

    // MARK: - Input

    /// Feeds bytes received on the ATT channel. Bytes that do not decode are a violation; a
    /// malformed request is also answered with Invalid PDU (Vol 3, Part F §3.4.1.1).
    public mutating func receive(bytes: [UInt8], now: Instant) -> [Action] {
        do {
            return receive(try ATTPDU(bytes: bytes), now: now)
        } catch {
            var actions = tick(now: now)
            guard !isDead else { return actions }
            actions.append(.violation(.malformed(bytes: bytes, error: error)))
            if let first = bytes.first, ATTOpcode(rawValue: first).kind == .request {
                actions.append(.send(.errorResponse(requestOpcodeInError: ATTOpcode(rawValue: first),
                                                    attributeHandleInError: 0x0000, errorCode: .invalidPDU)))
            }
            return actions
        }
    }

    /// Feeds a PDU received on the ATT channel. A dead bearer ignores it.
    public mutating func receive(_ pdu: ATTPDU, now: Instant) -> [Action] {
        var actions = tick(now: now)
        guard !isDead else { return actions }
        switch pdu.kind {
        case .request:
            if inboundRequests > 0 { actions.append(.violation(.requestBeforeResponse(pdu))) }
            if case let .exchangeMTURequest(clientRxMTU) = pdu {
                // Answered here: the response carries our receive MTU (§3.4.2.2).
                mtu = Self.negotiated(Int(clientRxMTU), rxMTU)
                actions.append(.send(.exchangeMTUResponse(serverRxMTU: UInt16(rxMTU))))
            } else {
                inboundRequests += 1
                actions.append(.deliverRequest(pdu))
            }
        case .command:
            actions.append(.deliverRequest(pdu))
        case .response:
            actions += answer(pdu, now: now)
        case .notification:
            if case let .handleValueNotification(handle, value) = pdu {
                actions.append(.notification(handle: handle, value: value))
            }
        case .indication:
            if case let .handleValueIndication(handle, value) = pdu {
                if unconfirmedIndication { actions.append(.violation(.indicationBeforeConfirmation(pdu))) }
                unconfirmedIndication = true
                actions.append(.indication(handle: handle, value: value))
            }
        case .confirmation:
            guard indicationDeadline != nil else {
                actions.append(.violation(.unexpectedConfirmation))
                break
            }
            indicationDeadline = nil
            actions += drainIndications(now: now)
        }
        return actions
    }

    /// Checks the transaction timers; call at ``deadline``. When a transaction expired the
    /// bearer dies and every request fails.
    public mutating func tick(now: Instant) -> [Action] {
        guard !isDead, let deadline, now >= deadline else { return [] }
        var actions: [Action] = [.timedOut]
        if let outstanding { actions.append(.failed(outstanding.id, .transactionTimeout)) }
        outstanding = nil
        actions += shutDown()
        return actions
    }

    /// The link went away: the bearer dies and every request fails.
    public mutating func close() -> [Action] {
        guard !isDead else { return [] }
        var actions: [Action] = []
        if let outstanding { actions.append(.failed(outstanding.id, .bearerClosed)) }
        outstanding = nil
        return actions + shutDown()
    }

    private mutating func shutDown() -> [Action] {
        isDead = true
        defer {
            queued.removeAll()
            queuedIndications.removeAll()
            indicationDeadline = nil
        }
        return queued.map { .failed($0.0, .bearerClosed) }
    }

    private static func negotiated(_ client: Int, _ server: Int) -> Int {
        max(defaultMTU, min(client, server))
    }

    private mutating func answer(_ pdu: ATTPDU, now: Instant) -> [Action] {
        guard let current = outstanding else { return [.violation(.unexpectedResponse(pdu))] }
        let request = current.pdu.opcode
        let matches: Bool
        if case let .errorResponse(inError, _, _) = pdu {
            matches = inError == request
        } else {
            matches = pdu.opcode == request.responseOpcode
        }
        guard matches else { return [.violation(.unexpectedResponse(pdu))] }
        if case let .exchangeMTURequest(clientRxMTU) = current.pdu, case let .exchangeMTUResponse(serverRxMTU) = pdu {
            mtu = Self.negotiated(Int(clientRxMTU), Int(serverRxMTU))
        }
        outstanding = nil
        return [.response(for: current.id, pdu)] + drainRequests(now: now)
    }

    private mutating func drainRequests(now: Instant) -> [Action] {
        guard outstanding == nil, !queued.isEmpty else { return [] }
        let (id, pdu) = queued.removeFirst()
        outstanding = Outstanding(id: id, pdu: pdu, deadline: now + Self.transactionTimeout)
        return [.send(pdu)]
    }

    private mutating func drainIndications(now: Instant) -> [Action] {
        guard indicationDeadline == nil, !queuedIndications.isEmpty else { return [] }
        indicationDeadline = now + Self.transactionTimeout
        return [.send(queuedIndications.removeFirst())]
    }
}
