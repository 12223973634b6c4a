import BlueproofAsync
import BlueproofWire

extension LEHost {
    /// Connects to `peer` as central (Vol 4, Part E §7.8.12). When no connection comes within
    /// `timeout` (3 s by default, as the Bluenet library uses), the attempt is cancelled with
    /// LE Create Connection Cancel and ``LEHostError/connectTimedOut(peer:limit:)`` is thrown; a
    /// connection that completes while the cancel is on its way is kept and returned.
    /// Advertising this host runs goes on after the connection (``restoreAdvertisingAfterConnecting()``).
    public func connect(to peer: BDAddress, type: LEAddressType, timeout: Duration = .seconds(3),
                        interval: LEConnectionInterval = LEConnectionInterval(rawValue: 0x0018),
                        supervisionTimeout: LESupervisionTimeout = LESupervisionTimeout(rawValue: 0x01F4))
        async throws(LEHostError) -> LEConnection {
        let connection = try await establish(peer, type: type, timeout: timeout, interval: interval,
                                             supervisionTimeout: supervisionTimeout)
        await restoreAdvertisingAfterConnecting()
        return connection
    }

    private func establish(_ peer: BDAddress, type: LEAddressType, timeout: Duration, interval: LEConnectionInterval,
                           supervisionTimeout: LESupervisionTimeout) async throws(LEHostError) -> LEConnection {
        guard pendingConnection == nil else { throw .connectionInProgress }
        let pending = PendingConnection(peer: peer)
        pendingConnection = pending
        do {
            try await initiate(peer: peer, type: type, interval: interval, supervisionTimeout: supervisionTimeout)
        } catch {
            pendingConnection = nil
            throw error
        }
        let outcome = pending.outcome
        if let result = try? await withTimeout(timeout, clock: clock, what: "connection to \(peer)", { await outcome.wait() }) {
            return try result.get()
        }
        logger.debug("no connection to \(peer) within \(timeout); cancelling")
        do {
            try await controller.send(HCILECreateConnectionCancel())
        } catch .failed(_, .commandDisallowed) {
            // Nothing pending any more: the attempt ended on its own, its event is on its way.
        } catch {
            throw .command(error)
        }
        // The cancelled attempt ends with LE Connection Complete (Unknown Connection Identifier),
        // or with success if the connection won the race.
        let settled = try? await withTimeout(.seconds(2), clock: clock, what: "the cancelled connection's outcome") {
            await outcome.wait()
        }
        if case let .success(connection)? = settled { return connection }
        if pendingConnection?.peer == peer { pendingConnection = nil }
        throw .connectTimedOut(peer: peer, limit: timeout)
    }

    /// LE Create Connection (§7.8.12) or LE Extended Create Connection on the 1M PHY (§7.8.66).
    private func initiate(peer: BDAddress, type: LEAddressType, interval: LEConnectionInterval,
                          supervisionTimeout: LESupervisionTimeout) async throws(LEHostError) {
        let scan = LEScanInterval(rawValue: 0x0010)
        switch commandSet {
        case .legacy:
            try await run(HCILECreateConnection(
                scanInterval: scan, scanWindow: scan, peerAddressType: type, peerAddress: peer, ownAddressType: ownAddressType,
                connectionIntervalMin: interval, connectionIntervalMax: interval, supervisionTimeout: supervisionTimeout))
        case .extended:
            try await run(HCILEExtendedCreateConnection(ownAddressType: ownAddressType, peerAddressType: type, peerAddress: peer, le1M: .init(
                scanInterval: scan, scanWindow: scan, connectionIntervalMin: interval, connectionIntervalMax: interval,
                supervisionTimeout: supervisionTimeout)))
        }
    }

    /// Connections made by remote centrals while this host advertised, from now on.
    public func incomingConnections() -> AsyncStream<LEConnection> {
        let (stream, continuation) = AsyncStream.makeStream(of: LEConnection.self)
        let id = subscriberID()
        incoming[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.dropIncoming(id) }
        }
        return stream
    }

    private func dropIncoming(_ id: UInt64) { incoming[id] = nil }

    /// Ends `connection` with `reason` and waits for Disconnection Complete (2 s by default, as
    /// the Bluenet library uses). Returns at once if it already ended.
    public func disconnect(_ connection: LEConnection, reason: HCIStatus = .remoteUserTerminated,
                           timeout: Duration = .seconds(2)) async throws(LEHostError) {
        // Already ended, whether or not the handle names another connection by now.
        guard let link = links[connection.handle], link.connection == connection else { return }
        links[connection.handle]?.closing = true
        acl?.hold(handle: connection.handle)
        do {
            try await controller.send(HCIDisconnect(connectionHandle: connection.handle, reason: reason))
        } catch .failed(_, .unknownConnectionIdentifier) {
            // It ended meanwhile; Disconnection Complete is on its way.
        } catch {
            // Refused: the connection goes on, unless the handle meanwhile names another one.
            if links[connection.handle]?.connection == connection {
                links[connection.handle]?.closing = false
                acl?.release(handle: connection.handle)
            }
            throw .command(error)
        }
        let ended = link.connection.ended
        guard (try? await withTimeout(timeout, clock: clock, what: "Disconnection Complete", { await ended.wait() })) != nil else {
            throw .disconnectTimedOut(handle: connection.handle, limit: timeout)
        }
    }

    /// Waits until `connection` ends and returns the reason the controller gave.
    public nonisolated func waitForDisconnection(_ connection: LEConnection) async -> HCIStatus? {
        await connection.ended.wait()
    }

    /// Asks for new connection parameters: as central through LE Connection Update
    /// (Vol 4, Part E §7.8.18), which the controller applies; as peripheral through the L2CAP
    /// Connection Parameter Update Request (Vol 3, Part A §4.20), which the central may refuse.
    public func updateConnection(_ connection: LEConnection, intervalMin: LEConnectionInterval,
                                 intervalMax: LEConnectionInterval, latency: UInt16 = 0,
                                 supervisionTimeout: LESupervisionTimeout) async throws(LEHostError) {
        guard links[connection.handle] != nil else { throw .notConnected(handle: connection.handle) }
        if connection.role == .peripheral {
            let request = L2CAPConnectionParameterUpdateRequest(
                intervalMin: intervalMin, intervalMax: intervalMax, latency: latency, timeout: supervisionTimeout)
            do {
                let actions = try links[connection.handle]!.signaling.requestConnectionParameterUpdate(request)
                performSignaling(on: connection.handle) { _ in actions }
            } catch {
                throw .signalingRefused(what: "Connection Parameter Update Request", reason: "\(error)")
            }
            return
        }
        do {
            try await controller.send(HCILEConnectionUpdate(
                connectionHandle: connection.handle, connectionIntervalMin: intervalMin,
                connectionIntervalMax: intervalMax, maxLatency: latency, supervisionTimeout: supervisionTimeout))
        } catch {
            throw .command(error)
        }
    }

    /// The open connections.
    public var connections: [LEConnection] { links.values.map(\.connection).sorted { $0.handle < $1.handle } }

    // MARK: Events

    func connectionCompleted(status: HCIStatus, connection: LEConnection) {
        guard status == .success else {
            if let pending = pendingConnection {
                pendingConnection = nil
                pending.outcome.resolve(.failure(.connectionFailed(peer: pending.peer, status: status)))
            }
            return
        }
        if links[connection.handle] != nil {
            // A controller reuses a handle only once its connection is gone, so that one ended
            // unreported (btvirt does this when the peer's controller goes away). It is ended
            // here, so its channels and waiters do not block the new connection.
            violation("LE Connection Complete for handle 0x\(hex(connection.handle)), which is already open; the old connection is taken as ended")
            disconnected(handle: connection.handle, reason: .unknownConnectionIdentifier)
        }
        if connection.role == .peripheral, advertising {
            advertising = false
            advertisingMayRun = true
        }
        links[connection.handle] = LELink(connection)
        acl?.open(handle: connection.handle)
        linkOpened(connection)
        logger.debug("connected \(connection)")
        if connection.role == .central, let pending = pendingConnection {
            pendingConnection = nil
            pending.outcome.resolve(.success(connection))
        } else {
            for continuation in incoming.values { continuation.yield(connection) }
        }
    }

    func disconnected(handle: UInt16, reason: HCIStatus) {
        guard let link = links.removeValue(forKey: handle) else {
            violation("Disconnection Complete for unknown handle 0x\(hex(handle))")
            return
        }
        recombiner.close(handle: handle)
        acl?.close(handle: handle)
        for waiter in link.roomWaiters { waiter.resolve(false) }
        linkClosed(link, reason: reason)
        link.connection.ended.resolve(reason)
        logger.debug("disconnected 0x\(hex(handle)): \(reason)")
    }
}
