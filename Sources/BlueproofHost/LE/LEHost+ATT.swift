import BlueproofAsync
import BlueproofWire

extension LEHost {
    // MARK: Bearer

    /// Bytes on a connection's ATT channel (Vol 3, Part F §3.3).
    func receiveATT(_ bytes: [UInt8], on handle: UInt16) {
        let confirmation = bytes.first == ATTOpcode.handleValueConfirmation.rawValue
        let hadIndication = links[handle]?.att.hasOutstandingIndication ?? false
        performATT(on: handle) { $0.receive(bytes: bytes, now: timeline.elapsed()) }
        if confirmation, hadIndication, let waiter = links[handle]?.indicationWaiters.first {
            links[handle]?.indicationWaiters.removeFirst()
            waiter.resolve(true)
        }
    }

    /// Runs `step` on the connection's bearer and carries out what it asks.
    func performATT(on handle: UInt16, _ step: (inout ATTBearer) -> [ATTBearer.Action]) {
        guard links[handle] != nil else { return }
        carryOutATT(step(&links[handle]!.att), on: handle)
    }

    private func carryOutATT(_ actions: [ATTBearer.Action], on handle: UInt16) {
        for action in actions {
            switch action {
            case let .send(pdu):
                try? sendL2CAP(pdu.bytes, channel: .att, on: handle)
            case let .response(id, pdu):
                links[handle]?.attWaiters.removeValue(forKey: id)?.resolve(.success(pdu))
            case let .failed(id, failure):
                let error: LEHostError = switch failure {
                case .transactionTimeout: .peerTimedOut(what: "ATT response", limit: ATTBearer.transactionTimeout)
                case .bearerClosed where links[handle]?.att.isDead == true:
                    // Vol 3, Part F §3.3.3: after a transaction timeout nothing more is sent.
                    .peerTimedOut(what: "ATT response (an earlier transaction timed out)", limit: ATTBearer.transactionTimeout)
                default: .notConnected(handle: handle)
                }
                links[handle]?.attWaiters.removeValue(forKey: id)?.resolve(.failure(error))
            case .timedOut:
                violation("ATT transaction timed out on 0x\(hex(handle)); the bearer is closed (Vol 3, Part F §3.3.3)")
                for waiter in links[handle]?.indicationWaiters ?? [] { waiter.resolve(false) }
                links[handle]?.indicationWaiters = []
            case let .violation(problem):
                violation("ATT on 0x\(hex(handle)): \(problem)")
            case let .deliverRequest(pdu):
                serve(pdu, on: handle)
            case let .notification(attribute, value):
                deliver(GATTNotification(handle: attribute, value: value, isIndication: false), on: handle)
            case let .indication(attribute, value):
                deliver(GATTNotification(handle: attribute, value: value, isIndication: true), on: handle)
                performATT(on: handle) { $0.confirm() }
            }
        }
        armATTTimer(on: handle)
    }

    /// Keeps one timer per connection at the bearer's earliest transaction deadline.
    private func armATTTimer(on handle: UInt16) {
        guard let link = links[handle] else { return }
        let deadline = link.att.deadline
        guard link.attTimer?.deadline != deadline else { return }
        link.attTimer?.task.cancel()
        links[handle]?.attTimer = nil
        guard let deadline else { return }
        let timeline = self.timeline
        let task = Task { [weak self] in
            guard (try? await timeline.sleep(deadline)) != nil else { return }
            await self?.attDeadlinePassed(on: handle)
        }
        links[handle]?.attTimer = (deadline, task)
    }

    private func attDeadlinePassed(on handle: UInt16) {
        links[handle]?.attTimer = nil
        performATT(on: handle) { $0.tick(now: timeline.elapsed()) }
    }

    private func deliver(_ notification: GATTNotification, on handle: UInt16) {
        for continuation in links[handle]?.notificationSubscribers.values ?? [:].values {
            continuation.yield(notification)
        }
    }

    // MARK: Client

    /// A GATT client for the peer's server on `connection` (Vol 3, Part G §4).
    public nonisolated func gattClient(for connection: LEConnection) -> GATTClient {
        GATTClient(requester: LEHostATTRequester(host: self, handle: connection.handle))
    }

    /// Notifications and indications from the peer's server on `connection`, from now on,
    /// until it ends.
    public func notifications(on connection: LEConnection) -> AsyncStream<GATTNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: GATTNotification.self)
        guard links[connection.handle] != nil else {
            continuation.finish()
            return stream
        }
        let id = subscriberID()
        links[connection.handle]?.notificationSubscribers[id] = continuation
        let handle = connection.handle
        continuation.onTermination = { [weak self] _ in
            Task { await self?.dropNotificationSubscriber(id, on: handle) }
        }
        return stream
    }

    private func dropNotificationSubscriber(_ id: UInt64, on handle: UInt16) {
        links[handle]?.notificationSubscribers[id] = nil
    }

    /// The ATT_MTU in force on `connection`.
    public func attMTU(on connection: LEConnection) -> Int { attMTU(handle: connection.handle) }

    func attMTU(handle: UInt16) -> Int { links[handle]?.att.mtu ?? ATTBearer.defaultMTU }

    func attRequest(_ pdu: ATTPDU, on handle: UInt16) async throws(LEHostError) -> ATTPDU {
        guard links[handle] != nil else { throw .notConnected(handle: handle) }
        let (id, actions) = links[handle]!.att.request(pdu, now: timeline.elapsed())
        let answer = OneShot<Result<ATTPDU, LEHostError>>()
        links[handle]?.attWaiters[id] = answer
        carryOutATT(actions, on: handle)
        guard let result = await answer.wait() else { throw .notConnected(handle: handle) }
        return try result.get()
    }

    func attCommand(_ pdu: ATTPDU, on handle: UInt16) async throws(LEHostError) {
        guard links[handle] != nil else { throw .notConnected(handle: handle) }
        try await waitForRoom(on: handle, below: Self.outboundQueueLimit)
        performATT(on: handle) { $0.command(pdu) }
    }

    /// PDUs a connection may have waiting for ACL buffers before senders wait.
    static let outboundQueueLimit = 8

    // MARK: Server

    /// Serves `services` (with the GAP and GATT services in front, Vol 3, Part G §7) to every
    /// connection from now on, replacing what was served before.
    public func serve(_ services: [GATTServiceDefinition], deviceName: String = "blueproof") throws(GATTDatabaseError) {
        gattServer = GATTServer(database: try GATTDatabase(services: services, deviceName: deviceName))
    }

    /// The database served, with the handles it assigned; nil before ``serve(_:deviceName:)``.
    public var gattDatabase: GATTDatabase? { gattServer?.database }

    /// Writes and subscription changes by peers' clients, from now on.
    public func gattServerEvents() -> AsyncStream<GATTServerEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: GATTServerEvent.self)
        let id = subscriberID()
        serverSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.dropServerSubscriber(id) }
        }
        return stream
    }

    private func dropServerSubscriber(_ id: UInt64) { serverSubscribers[id] = nil }

    /// Sets a characteristic's value in the served database (what reads return from now on).
    public func setValue(_ value: [UInt8], of valueHandle: UInt16) -> Bool {
        gattServer?.setValue(value, of: valueHandle) ?? false
    }

    /// Whether the client on `connection` asked for notifications of `characteristic`.
    public func isSubscribed(_ connection: LEConnection, to characteristic: UInt16) -> Bool {
        gattServer?.configuration(of: characteristic, for: connection.handle).contains(.notification) ?? false
    }

    /// Sends `value` as a Handle Value Notification of `characteristic` to `connection` when its
    /// client subscribed (Vol 3, Part G §4.10). A value longer than ATT_MTU - 3 (at most 512)
    /// throws ``LEHostError/valueTooLong(length:maximum:)``: nothing is cut. Waits while the
    /// connection's outbound queue is full, so a sender cannot outrun the controller. Returns
    /// false when the client is not subscribed; throws when nothing could be queued (the
    /// connection is closing, or the ATT bearer is dead after a transaction timeout).
    @discardableResult
    public func notify(_ value: [UInt8], of characteristic: UInt16, to connection: LEConnection) async throws(LEHostError) -> Bool {
        try await notifyTracked(value, of: characteristic, to: connection) != nil
    }

    /// As ``notify(_:of:to:)``, returning the notification's number among the connection's
    /// outbound PDUs (nil when the client is not subscribed): it has reached the peer's side
    /// of the controller once ``waitForCompletion(ofPDU:on:)`` returns for it.
    public func notifyTracked(_ value: [UInt8], of characteristic: UInt16, to connection: LEConnection) async throws(LEHostError) -> Int? {
        let handle = connection.handle
        try await waitForRoom(on: handle, below: Self.outboundQueueLimit)
        guard let link = links[handle], let server = gattServer else { throw .notConnected(handle: handle) }
        let outbound = try Self.refusingLongValues { () throws(GATTValueTooLong) in
            try server.notifications(for: characteristic, value: value, mtu: link.att.mtu).filter { $0.connection == handle }
        }
        guard let first = outbound.first, case let .handleValueNotification(attribute, whole) = first.pdu else { return nil }
        let before = acl?.pdusQueued(on: handle) ?? 0
        performATT(on: handle) { $0.notify(handle: attribute, value: whole) }
        let number = acl?.pdusQueued(on: handle) ?? 0
        guard number > before else {
            // Nothing left: the connection is closing, or the bearer is dead (Vol 3, Part F §3.3.3).
            guard links[handle]?.closing == false else { throw .notConnected(handle: handle) }
            throw .peerTimedOut(what: "ATT response (an earlier transaction timed out)", limit: ATTBearer.transactionTimeout)
        }
        return number
    }

    /// Sends `value` as a Handle Value Indication and waits for the client's confirmation
    /// (Vol 3, Part G §4.11). A value longer than ATT_MTU - 3 throws
    /// ``LEHostError/valueTooLong(length:maximum:)``. Returns false when the client did not ask
    /// for indications.
    @discardableResult
    public func indicate(_ value: [UInt8], of characteristic: UInt16, to connection: LEConnection) async throws(LEHostError) -> Bool {
        let handle = connection.handle
        guard let link = links[handle], let server = gattServer else { throw .notConnected(handle: handle) }
        let outbound = try Self.refusingLongValues { () throws(GATTValueTooLong) in
            try server.indications(for: characteristic, value: value, mtu: link.att.mtu).filter { $0.connection == handle }
        }
        guard let first = outbound.first, case let .handleValueIndication(attribute, whole) = first.pdu else { return false }
        let confirmed = OneShot<Bool>()
        links[handle]?.indicationWaiters.append(confirmed)
        performATT(on: handle) { $0.indicate(handle: attribute, value: whole, now: timeline.elapsed()) }
        guard await confirmed.wait() == true else {
            if let reason = connection.endReason { throw .disconnected(handle: handle, reason: reason) }
            throw .peerTimedOut(what: "Handle Value Confirmation", limit: ATTBearer.transactionTimeout)
        }
        return true
    }

    /// The server's refusal of an oversize value as the host's error.
    private static func refusingLongValues<T>(_ body: () throws(GATTValueTooLong) -> T) throws(LEHostError) -> T {
        do {
            return try body()
        } catch {
            throw .valueTooLong(length: error.length, maximum: error.maximum)
        }
    }

    /// A request or command from the peer's client, for the local server.
    private func serve(_ pdu: ATTPDU, on handle: UInt16) {
        guard let link = links[handle] else { return }
        guard gattServer != nil else {
            // Nothing served: requests get Request Not Supported, commands are ignored (§3.4.1.1).
            if pdu.kind == .request {
                performATT(on: handle) {
                    $0.respond(.errorResponse(requestOpcodeInError: pdu.opcode, attributeHandleInError: 0, errorCode: .requestNotSupported))
                }
            }
            return
        }
        let actions = gattServer!.handle(pdu, from: handle, mtu: link.att.mtu)
        for action in actions {
            switch action {
            case let .respond(response):
                performATT(on: handle) { $0.respond(response) }
            case let .written(attribute, _, value, withResponse):
                publish(.written(connection: link.connection, handle: attribute, value: value, withResponse: withResponse))
            case let .subscriptionChanged(_, characteristic, notify, indicate):
                publish(.subscriptionChanged(connection: link.connection, characteristic: characteristic,
                                             notify: notify, indicate: indicate))
            case let .writeRefused(attribute, length, withResponse, error):
                logger.info("""
                    refused a \(withResponse ? "Write Request" : "Write Command") of \(length) octets to 0x\(hex(attribute)) \
                    on 0x\(hex(handle)): \(error)\(withResponse ? " (answered)" : " (a command gets no answer)")
                    """)
                publish(.writeRefused(connection: link.connection, handle: attribute, length: length,
                                      withResponse: withResponse, error: error))
            }
        }
    }

    private func publish(_ event: GATTServerEvent) {
        for continuation in serverSubscribers.values { continuation.yield(event) }
    }
}

/// Carries a ``GATTClient``'s PDUs over one connection's ATT bearer in an ``LEHost``.
struct LEHostATTRequester: ATTRequester {
    let host: LEHost
    let handle: UInt16

    func request(_ pdu: ATTPDU) async throws -> ATTPDU { try await host.attRequest(pdu, on: handle) }
    func command(_ pdu: ATTPDU) async throws { try await host.attCommand(pdu, on: handle) }
    var mtu: Int {
        get async { await host.attMTU(handle: handle) }
    }
}
