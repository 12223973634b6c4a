import BlueproofAsync
import BlueproofHost
import BlueproofTransmitter
import BlueproofWire
import Logging
import Synchronization

/// The transmitter's BLE link over this project's GATT, on one ``LEHost``
/// (docs/transmitter-links.md, "BLE"; issue 5, "Links").
///
/// Every node serves the transmitter service, advertises it with its user id
/// (``BLEAnnouncement``) and scans actively. Peers are nearby while their advertising is
/// seen; one not seen for ``BLELinkProfile/staleAfter`` (on the injected clock) and not
/// connected is gone. Of two peers only the one with the lower `UserID` opens the LE
/// connection; the other's `connect` waits for it, so a pair never holds two connections.
/// Frames travel as ``BLEFrameChunk``s: written without response by the central, notified by
/// the peripheral, both waiting on the host's flow control.
public actor BLELink: PlatformAnnouncingLink {
    public nonisolated let kind: LinkKind = .ble
    public let host: LEHost
    public let profile: BLELinkProfile
    let clock: any Clock<Duration>
    let logger: Logger
    /// The events of the current run: `stop()` finishes them and starts a fresh stream, so a
    /// stopped link can be started again (the transmitter asks for `events()` at every start).
    private nonisolated let channel: Mutex<(stream: AsyncStream<LinkEvent>, continuation: AsyncStream<LinkEvent>.Continuation)>
    private var output: AsyncStream<LinkEvent>.Continuation { channel.withLock { $0.continuation } }

    private var localUser: UserID?
    private var stopped = false
    private var valueHandle: UInt16 = 0
    private var tasks: [Task<Void, Never>] = []
    /// Each connection's watcher and notification reader, dropped when it ends.
    private var connectionTasks: [LEConnection: [Task<Void, Never>]] = [:]
    private var sightings: BLESightings
    private var nearby: [UserID: BLEPeerAddress] = [:]
    private var staleTimers: [UserID: (id: UInt64, task: Task<Void, Never>)] = [:]
    private var nextTimer: UInt64 = 0
    private var sessions: [UserID: BLESession] = [:]
    /// Connections by handle: the peer's user once known (after the hello on incoming ones).
    private var handles: [UInt16: UserID] = [:]
    /// Incoming connections whose central has not said hello yet.
    private var unnamed: [UInt16: LEConnection] = [:]
    private var readyWaiters: [UserID: [OneShot<Bool>]] = [:]
    private var turns = AsyncTurns<Turn>()

    private enum Turn: Hashable, Sendable {
        /// The host initiates one connection at a time.
        case initiating
        /// One frame at a time per peer, so chunks never interleave.
        case sending(UserID)
    }

    public init(host: LEHost, profile: BLELinkProfile = BLELinkProfile(),
                clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.host = host
        self.profile = profile
        self.clock = clock
        self.logger = logger ?? Logger(label: "blueproof.link.ble")
        sightings = BLESightings(service: profile.service)
        channel = Mutex(AsyncStream.makeStream(of: LinkEvent.self))
    }

    public nonisolated func events() -> AsyncStream<LinkEvent> { channel.withLock { $0.stream } }

    /// The peers connected now (GATT ready both ways).
    public var connectedPeers: Set<UserID> { Set(sessions.filter(\.value.ready).keys) }

    // MARK: Start and stop

    public func start(localUser user: UserID) async throws(LinkError) {
        guard localUser == nil, !stopped else { throw LinkError(.unavailable, "the BLE link is already started") }
        localUser = user
        do {
            try await host.serve([GATTServiceDefinition(uuid: profile.service, characteristics: [
                GATTCharacteristicDefinition(uuid: profile.characteristic,
                                             properties: [.notify, .writeWithoutResponse, .write]),
            ])], deviceName: "blueproof-transmitter")
        } catch {
            throw LinkError(.unavailable, "could not serve the transmitter service: \(error)")
        }
        guard let handle = await host.gattDatabase?.characteristic(uuid: profile.characteristic)?.valueHandle else {
            throw LinkError(.unavailable, "the frame characteristic has no value handle")
        }
        valueHandle = handle
        let serverEvents = await host.gattServerEvents()
        let incoming = await host.incomingConnections()
        tasks.append(Task { [weak self] in
            for await event in serverEvents { await self?.serverEvent(event) }
        })
        tasks.append(Task { [weak self] in
            for await connection in incoming { await self?.accepted(connection) }
        })
        try await advertise()
        let reports: AsyncStream<LEAdvertisement>
        do {
            reports = try await host.scan(LEScanParameters(active: true))
        } catch {
            throw LinkError(.unavailable, "could not scan: \(error)")
        }
        tasks.append(Task { [weak self] in
            for await report in reports { await self?.seen(report) }
        })
    }

    public func stop() async {
        guard !stopped else { return }
        stopped = true
        let open = sessions.values.map(\.connection) + unnamed.values
        for task in tasks + connectionTasks.values.joined() { task.cancel() }
        tasks = []
        connectionTasks = [:]
        for timer in staleTimers.values { timer.task.cancel() }
        staleTimers = [:]
        try? await host.stopAdvertising()
        for connection in open {
            try? await host.disconnect(connection)
            connectionEnded(connection)
        }
        channel.withLock { current in
            current.continuation.finish()
            current = AsyncStream.makeStream(of: LinkEvent.self)
        }
        // Ready to start again, as a new run.
        for peer in Array(readyWaiters.keys) { resolveWaiters(peer, false) }
        nearby = [:]
        sightings = BLESightings(service: profile.service)
        localUser = nil
        stopped = false
    }

    private func advertise() async throws(LinkError) {
        guard let localUser, !stopped else { return }
        let announcement = BLEAnnouncement(user: localUser, service: profile.service, platform: profile.platform)
        do {
            try await host.startAdvertising(LEAdvertisingParameters(
                data: try announcement.advertisingData(), scanResponse: try announcement.scanResponse()))
        } catch {
            throw LinkError(.unavailable, "could not advertise: \(error)")
        }
    }

    // MARK: Presence

    public func announcedPlatform(of peer: UserID) -> DevicePlatform? { sightings.platform(of: peer) }

    private func seen(_ report: LEAdvertisement) {
        guard !stopped, let (user, address) = sightings.add(report), user != localUser else { return }
        let known = nearby.updateValue(address, forKey: user) != nil
        if !known { output.yield(.peerNearby(user)) }
        if sessions[user] == nil { armStaleTimer(for: user) }
    }

    /// One deadline per peer on the injected clock; each sighting moves it.
    private func armStaleTimer(for user: UserID) {
        staleTimers.removeValue(forKey: user)?.task.cancel()
        guard let limit = profile.staleAfter else { return }
        nextTimer += 1
        let id = nextTimer
        let clock = clock
        let task = Task { [weak self] in
            guard (try? await sleep(on: clock, for: limit)) != nil else { return }
            await self?.staleTimerFired(for: user, id: id)
        }
        staleTimers[user] = (id, task)
    }

    /// A connection to `peer` could not be made (a controller refuses LE Create Connection
    /// while the peer is not connectable, e.g. between its accepting another central and
    /// advertising again): the peer is gone until it is heard again, so its next advertising
    /// report announces it afresh and automatic mode tries again on that event.
    private func forget(_ peer: UserID) {
        staleTimers.removeValue(forKey: peer)?.task.cancel()
        guard sessions[peer] == nil, nearby.removeValue(forKey: peer) != nil else { return }
        logger.debug("could not connect to \(peer): forgotten until heard again")
        output.yield(.peerGone(peer))
    }

    private func staleTimerFired(for user: UserID, id: UInt64) {
        guard staleTimers[user]?.id == id else { return }
        staleTimers[user] = nil
        guard sessions[user] == nil, nearby.removeValue(forKey: user) != nil else { return }
        logger.debug("\(user) not seen for \(profile.staleAfter.map { "\($0)" } ?? "-"): gone")
        output.yield(.peerGone(user))
    }

    // MARK: Connecting

    public func connect(to peer: UserID) async throws(LinkError) {
        guard let localUser, !stopped else { throw LinkError(.unavailable, "the BLE link is not started") }
        if sessions[peer]?.ready == true { return }
        guard let address = nearby[peer] else { throw LinkError(.peerUnreachable, "\(peer) is not nearby") }
        if localUser < peer, sessions[peer] == nil {
            try await open(peer, at: address)
            return
        }
        // The lower id opens (or this node's own attempt is under way): wait for it, and open
        // the connection itself if the lower id does not within the grace.
        do {
            try await waitUntilReady(peer, within: sessions[peer] == nil ? profile.initiatorGrace : profile.connectTimeout)
        } catch where error.reason == .timeout {
            guard sessions[peer] == nil, let address = nearby[peer], !accepting(from: address) else { return try await waitUntilReady(peer) }
            try await open(peer, at: address)
        }
    }

    /// Whether a central at `address` has connected and not yet said hello: the peer's own
    /// connection is under way (its GATT setup can outlast the grace on a loaded machine), and
    /// opening a second one would leave a pair with two connections.
    private func accepting(from address: BLEPeerAddress) -> Bool {
        unnamed.values.contains { $0.peerAddress == address.address }
    }

    private func waitUntilReady(_ peer: UserID, within limit: Duration? = nil) async throws(LinkError) {
        let ready = OneShot<Bool>()
        readyWaiters[peer, default: []].append(ready)
        let limit = limit ?? profile.connectTimeout
        let outcome = try? await withTimeout(limit, clock: clock, what: "the connection of \(peer)") { await ready.wait() }
        switch outcome {
        case true?: return
        case false?: throw LinkError(.connectionLost, "the connection to \(peer) failed")
        case nil: throw LinkError(.timeout, "\(peer) did not connect within \(limit)")
        }
    }

    private func resolveWaiters(_ peer: UserID, _ ready: Bool) {
        for waiter in readyWaiters.removeValue(forKey: peer) ?? [] { waiter.resolve(ready) }
    }

    /// As central: connect, exchange MTU, find the characteristic, subscribe, say hello.
    private func open(_ peer: UserID, at address: BLEPeerAddress) async throws(LinkError) {
        await take(.initiating)
        defer { turns.give(.initiating) }
        if sessions[peer]?.ready == true { return }
        if sessions[peer] != nil || accepting(from: address) {
            try await waitUntilReady(peer)
            return
        }
        let connection: LEConnection
        do {
            connection = try await connectAttempts(to: address)
        } catch .connectTimedOut {
            forget(peer)
            throw LinkError(.timeout, "no connection to \(peer) within \(profile.connectTimeout)")
        } catch {
            forget(peer)
            throw LinkError(.peerUnreachable, "could not connect to \(peer): \(error)")
        }
        staleTimers.removeValue(forKey: peer)?.task.cancel()
        handles[connection.handle] = peer
        watch(connection)
        let gatt = host.gattClient(for: connection)
        do {
            let remote = try await prepare(connection, gatt: gatt)
            let mtu = await host.attMTU(on: connection)
            guard connection.endReason == nil else { throw LinkError(.connectionLost, "the connection ended while preparing") }
            sessions[peer] = BLESession(
                connection: connection, role: .central(gatt, handle: remote),
                chunker: try BLEFrameChunker(chunkSize: BLEFrameChunk.chunkSize(forATTMTU: mtu), frameLimit: profile.frameLimit),
                reassembler: BLEFrameReassembler(frameLimit: profile.frameLimit))
            let hello = BLEFrameChunk(flags: .hello, sequence: 0, index: 0, totalLength: nil, body: localUser?.bytes ?? [])
            try await gatt.write(handle: remote, value: hello.bytes)
        } catch {
            logger.debug("could not prepare \(connection): \(error)")
            try? await host.disconnect(connection)
            connectionEnded(connection)
            if let error = error as? LinkError { throw error }
            throw LinkError(.connectionLost, "GATT setup with \(peer) failed: \(error)")
        }
        becameReady(peer)
    }

    /// LE Create Connection, cancelled and issued again every ``BLELinkProfile/connectAttempt``
    /// until ``BLELinkProfile/connectTimeout``. A connection request the advertiser never
    /// answered (two centrals sent theirs in one advertising event and it took the other) ends
    /// on a controller as Connection Failed to be Established after a few connection intervals
    /// (Vol 6, Part B §4.5); Rootcanal reports nothing, its initiator ignores every later
    /// advertisement, and its cancel leaves the controller's one pending-connection slot taken,
    /// so it refuses every other connection until one with that same peer completes. Issuing
    /// the request again soon is what clears it, before the peer, whose
    /// ``BLELinkProfile/initiatorGrace`` has passed, tries the other way into the stuck
    /// controller and is stuck in turn.
    private func connectAttempts(to address: BLEPeerAddress) async throws(LEHostError) -> LEConnection {
        var left = profile.connectTimeout
        while true {
            let attempt = min(max(profile.connectAttempt, .milliseconds(100)), left)
            left -= attempt
            do {
                return try await host.connect(to: address.address, type: address.type, timeout: attempt)
            } catch .connectTimedOut where !stopped && left > .zero {
                logger.debug("no connection to \(address.address) within \(attempt); asking again")
            }
        }
    }

    /// MTU, discovery, subscription; returns the frame characteristic's value handle.
    private func prepare(_ connection: LEConnection, gatt: GATTClient) async throws -> UInt16 {
        if profile.mtu > ATTBearerDefaults.mtu { _ = try await gatt.exchangeMTU(profile.mtu) }
        let notifications = await host.notifications(on: connection)
        guard let service = try await gatt.discoverPrimaryService(uuid: profile.service).first,
              let characteristic = try await gatt.discoverCharacteristics(of: service)
                  .first(where: { $0.uuid == profile.characteristic }),
              characteristic.properties.isSuperset(of: [.notify, .writeWithoutResponse]) else {
            throw LinkError(.peerUnreachable, "the peer serves no usable transmitter characteristic")
        }
        let handle = connection.handle
        let remote = characteristic.valueHandle
        connectionTasks[connection, default: []].append(Task { [weak self] in
            for await notification in notifications where notification.handle == remote {
                await self?.chunkArrived(notification.value, on: handle)
            }
        })
        try await gatt.subscribe(characteristic)
        return remote
    }

    private func becameReady(_ peer: UserID) {
        guard sessions[peer] != nil, sessions[peer]?.ready == false else { return }
        sessions[peer]?.ready = true
        logger.debug("connected to \(peer)")
        output.yield(.connected(peer))
        for frame in sessions[peer]?.held ?? [] { output.yield(.frame(from: peer, bytes: frame)) }
        sessions[peer]?.held = []
        resolveWaiters(peer, true)
    }

    /// A central connected: advertise again (the connection stopped it) and wait for its hello.
    private func accepted(_ connection: LEConnection) async {
        guard !stopped else {
            try? await host.disconnect(connection)
            return
        }
        unnamed[connection.handle] = connection
        watch(connection)
        do {
            try await advertise()
        } catch {
            logger.debug("\(error)")
        }
    }

    private func watch(_ connection: LEConnection) {
        let host = host
        connectionTasks[connection, default: []].append(Task { [weak self] in
            // nil when cancelled (by stop, which ends the connection itself).
            guard await host.waitForDisconnection(connection) != nil else { return }
            await self?.connectionEnded(connection)
        })
    }

    private func connectionEnded(_ connection: LEConnection) {
        connectionTasks[connection] = nil
        unnamed[connection.handle] = nil
        guard let user = handles[connection.handle], let session = sessions[user], session.connection == connection else {
            if let user = handles[connection.handle], sessions[user] == nil { handles[connection.handle] = nil }
            return
        }
        handles[connection.handle] = nil
        sessions[user] = nil
        resolveWaiters(user, false)
        if session.ready {
            logger.debug("disconnected from \(user)")
            output.yield(.disconnected(user))
        }
        if !stopped, nearby[user] != nil { armStaleTimer(for: user) }
    }

    public func disconnect(from peer: UserID) async {
        guard let session = sessions[peer] else { return }
        try? await host.disconnect(session.connection)
        connectionEnded(session.connection)
    }

    // MARK: Frames

    /// Writes from centrals, one at a time: a hello is settled before the chunks behind it.
    private func serverEvent(_ event: GATTServerEvent) async {
        guard case let .written(connection, handle, value, _) = event, handle == valueHandle else { return }
        if let user = handles[connection.handle], sessions[user]?.connection == connection {
            chunkArrived(value, on: connection.handle)
        } else if unnamed[connection.handle] == connection {
            await hello(value, on: connection)
        }
    }

    /// The central's first write names its user; the connection is ready once it arrived (the
    /// central subscribed before writing it).
    private func hello(_ value: [UInt8], on connection: LEConnection) async {
        guard let chunk = try? BLEFrameChunk(bytes: value), chunk.flags.contains(.hello),
              let user = UserID(bytes: chunk.body) else {
            logger.debug("\(connection): first write is not a hello; ignored")
            return
        }
        unnamed[connection.handle] = nil
        guard sessions[user] == nil else {
            // Never two connections to one peer: the first one stays.
            logger.debug("a second connection from \(user); closing it")
            try? await host.disconnect(connection)
            return
        }
        staleTimers.removeValue(forKey: user)?.task.cancel()
        handles[connection.handle] = user
        let mtu = await host.attMTU(on: connection)
        guard connection.endReason == nil, handles[connection.handle] == user, sessions[user] == nil,
              let chunker = try? BLEFrameChunker(chunkSize: BLEFrameChunk.chunkSize(forATTMTU: mtu), frameLimit: profile.frameLimit)
        else { return }
        sessions[user] = BLESession(connection: connection, role: .peripheral(handle: valueHandle), chunker: chunker,
                                    reassembler: BLEFrameReassembler(frameLimit: profile.frameLimit))
        becameReady(user)
    }

    private func chunkArrived(_ bytes: [UInt8], on handle: UInt16) {
        guard let user = handles[handle], sessions[user] != nil else { return }
        do {
            if let frame = try sessions[user]?.reassembler.receive(bytes) { frameArrived(frame, from: user) }
        } catch .interrupted(let sequence, let received, let expected) {
            logger.debug("frame \(sequence) from \(user) cut short at \(received) of \(expected) bytes; dropped")
            if let frame = try? sessions[user]?.reassembler.receive(bytes) { frameArrived(frame, from: user) }
        } catch {
            logger.debug("chunk from \(user) refused: \(error)")
        }
    }

    /// Reports a whole frame, or holds it until the connection is ready (``BLESession/held``).
    private func frameArrived(_ frame: [UInt8], from user: UserID) {
        guard let session = sessions[user], !session.ready else {
            output.yield(.frame(from: user, bytes: frame))
            return
        }
        guard session.held.count < BLESession.heldLimit else {
            logger.debug("frame from \(user) before the connection was ready, over the \(BLESession.heldLimit) held: dropped")
            return
        }
        sessions[user]?.held.append(frame)
    }

    public func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        guard let session = sessions[peer], session.ready else { throw LinkError(.peerUnreachable, "\(peer) is not connected") }
        guard frame.count <= profile.frameLimit else {
            throw LinkError(.refused, "a frame of \(frame.count) bytes is over the link's \(profile.frameLimit)")
        }
        await take(.sending(peer))
        defer { turns.give(.sending(peer)) }
        guard sessions[peer]?.connection == session.connection else {
            throw LinkError(.connectionLost, "the connection to \(peer) ended before the frame was sent")
        }
        let chunks: [[UInt8]]
        do {
            chunks = try sessions[peer]!.chunker.chunks(of: frame)
        } catch {
            throw LinkError(.refused, "\(error)")
        }
        let connection = session.connection
        for chunk in chunks {
            guard connection.endReason == nil else {
                throw LinkError(.connectionLost, "the connection to \(peer) ended mid-frame")
            }
            do {
                switch session.role {
                case let .central(gatt, handle):
                    try await gatt.writeWithoutResponse(handle: handle, value: chunk)
                case let .peripheral(handle):
                    guard try await host.notify(chunk, of: handle, to: connection) else {
                        throw LinkError(.connectionLost, "\(peer) no longer subscribes")
                    }
                }
            } catch {
                throw LinkError(.connectionLost, "sending to \(peer) failed: \(error)")
            }
        }
    }

    private func take(_ turn: Turn) async {
        guard !turns.take(turn) else { return }
        await withCheckedContinuation { turns.enqueue(turn, $0) }
    }
}
