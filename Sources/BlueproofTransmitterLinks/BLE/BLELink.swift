import BlueproofAsync
import BlueproofHost
import BlueproofTransmitter
import BlueproofWire
import Foundation
import Logging
import Synchronization

/// The transmitter's BLE link over this project's GATT, on one ``LEHost``
/// (docs/transmitter-links.md, "BLE"; issue 5, "Links").
///
/// Every node serves the transmitter service, advertises it (``BLEAnnouncement``) from a random
/// address it changes at every start and every ``BLELinkProfile/addressRotation``, and scans
/// actively. The user id is not on the air (docs/security.md, "Tracking by a passive
/// observer"): a node of the service heard at an unknown address is named by a connection
/// with it, in which each side says hello with its user id (BLELink+Naming.swift). That
/// connection is kept once either side's application asks for it (an adopt chunk tells the
/// other), and closed after ``BLELinkProfile/probeHold`` otherwise, so on-demand mode reports
/// nearby users without staying connected. Peers are nearby while their advertising is seen;
/// one not seen for ``BLELinkProfile/staleAfter`` (on the injected clock) and not connected is
/// gone. Frames travel as ``BLEFrameChunk``s: written without response by the central,
/// notified by the peripheral, both waiting on the host's flow control.
public actor BLELink: PlatformAnnouncingLink {
    public nonisolated let kind: LinkKind = .ble
    public let host: LEHost
    public let profile: BLELinkProfile
    let clock: any Clock<Duration>
    /// The wall time the address rotation is judged on: the transmitter's own, so moving its
    /// clock (as the reference's provider can) moves the rotation too.
    let timeSource: any TransmitterTimeSource
    let logger: Logger
    /// The events of the current run: `stop()` finishes them and starts a fresh stream, so a
    /// stopped link can be started again (the transmitter asks for `events()` at every start).
    private nonisolated let channel: Mutex<(stream: AsyncStream<LinkEvent>, continuation: AsyncStream<LinkEvent>.Continuation)>
    var output: AsyncStream<LinkEvent>.Continuation { channel.withLock { $0.continuation } }

    var localUser: UserID?
    var stopped = false
    var valueHandle: UInt16 = 0
    /// The address this node advertises and connects from now, and when it took it.
    var ownAddress: BDAddress?
    private var addressTaken = Date.distantPast
    private var tasks: [Task<Void, Never>] = []
    /// Each connection's watcher and notification reader, dropped when it ends.
    var connectionTasks: [LEConnection: [Task<Void, Never>]] = [:]
    var sightings: BLESightings
    var nearby: [UserID: BLEPeerAddress] = [:]
    private var staleTimers: [UserID: (id: UInt64, task: Task<Void, Never>)] = [:]
    var nextTimer: UInt64 = 0
    /// Connections whose peer is named, kept (`ready`) or held until ``BLELinkProfile/probeHold``.
    var sessions: [UserID: BLESession] = [:]
    /// Connections by handle: the peer's user once named.
    var handles: [UInt16: UserID] = [:]
    /// Connections whose peer has not said hello yet, with what a central needs to write.
    var unnamed: [UInt16: (connection: LEConnection, central: (GATTClient, handle: UInt16)?)] = [:]
    /// Who is at the other end of each connection this node opened, once its hello arrived.
    var nameWaiters: [UInt16: OneShot<UserID?>] = [:]
    /// Addresses with a naming connection planned or under way, and its task.
    var probes: [BDAddress: Task<Void, Never>] = [:]
    /// Peers the application asked to connect to: their connection is kept once named.
    var wanted: Set<UserID> = []
    /// Closes a named connection nobody asked for once ``BLELinkProfile/probeHold`` has passed.
    var holdTimers: [UserID: Task<Void, Never>] = [:]
    var readyWaiters: [UserID: [OneShot<Bool>]] = [:]
    var turns = AsyncTurns<Turn>()

    enum Turn: Hashable, Sendable {
        /// The host initiates one connection at a time, and changes its address between them.
        case initiating
        /// One frame at a time per peer, so chunks never interleave.
        case sending(UserID)
    }

    public init(host: LEHost, profile: BLELinkProfile = BLELinkProfile(), clock: any Clock<Duration> = ContinuousClock(),
                timeSource: any TransmitterTimeSource = SystemTimeSource(), logger: Logger? = nil) {
        self.host = host
        self.profile = profile
        self.clock = clock
        self.timeSource = timeSource
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
        try await takeAddress()
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
        if let rotation = profile.addressRotation {
            let clock = clock
            let check = min(rotation, Self.rotationCheck)
            tasks.append(Task { [weak self] in
                while (try? await sleep(on: clock, for: check)) != nil {
                    await self?.rotateAddress(every: rotation)
                }
            })
        }
    }

    public func stop() async {
        guard !stopped else { return }
        stopped = true
        let open = sessions.values.map(\.connection) + unnamed.values.map(\.connection)
        for task in tasks + connectionTasks.values.joined() + probes.values + holdTimers.values { task.cancel() }
        tasks = []
        connectionTasks = [:]
        probes = [:]
        holdTimers = [:]
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
        for waiter in nameWaiters.values { _ = waiter.resolve(nil) }
        nameWaiters = [:]
        nearby = [:]
        wanted = []
        sightings = BLESightings(service: profile.service)
        localUser = nil
        stopped = false
    }

    func advertise() async throws(LinkError) {
        guard let localUser, !stopped else { return }
        let announcement = BLEAnnouncement(user: profile.announcesUser ? localUser : nil, service: profile.service,
                                           platform: profile.platform, device: profile.announcesDevice ? await host.address : nil)
        do {
            try await host.startAdvertising(LEAdvertisingParameters(
                data: try announcement.advertisingData(), scanResponse: try announcement.scanResponse()))
        } catch {
            throw LinkError(.unavailable, "could not advertise: \(error)")
        }
    }

    // MARK: Address

    /// A fresh non-resolvable private address (Core Vol 6, Part B §1.3.2.2) for this run, or the
    /// controller's public address when the profile rotates none.
    private func takeAddress() async throws(LinkError) {
        do {
            if profile.addressRotation == nil {
                try await host.usePublicAddress()
                ownAddress = await host.address
            } else {
                let address = BDAddress.nonResolvablePrivate()
                try await host.useRandomAddress(address)
                ownAddress = address
                addressTaken = timeSource.now()
            }
        } catch {
            throw LinkError(.unavailable, "could not set this node's address: \(error)")
        }
    }

    /// How often the link looks at ``timeSource`` for the address rotation.
    static let rotationCheck = Duration.seconds(1)

    /// Moves to a new random address once `rotation` has passed on ``timeSource`` since the
    /// last, between connection attempts; connections already made keep theirs. A refusal is
    /// logged and the next check tries again.
    private func rotateAddress(every rotation: Duration) async {
        guard timeSource.now().timeIntervalSince(addressTaken) >= rotation.seconds else { return }
        await take(.initiating)
        defer { turns.give(.initiating) }
        guard localUser != nil, !stopped else { return }
        let address = BDAddress.nonResolvablePrivate()
        do {
            try await host.useRandomAddress(address)
            logger.debug("advertising from \(address) now")
            ownAddress = address
            addressTaken = timeSource.now()
        } catch {
            logger.debug("could not move to a new address: \(error)")
        }
    }

    // MARK: Presence

    public func announcedPlatform(of peer: UserID) -> DevicePlatform? { sightings.platform(of: peer) }

    private func seen(_ report: LEAdvertisement) {
        guard !stopped, report.address != ownAddress, let (address, user) = sightings.add(report) else { return }
        guard let user else { return planNaming(address) }
        guard user != localUser else { return }
        present(user, at: address)
    }

    /// `user` is at `address` now: nearby (reported once), its stale timer moved.
    func present(_ user: UserID, at address: BLEPeerAddress) {
        let known = nearby.updateValue(address, forKey: user) != nil
        if !known { output.yield(.peerNearby(user)) }
        if sessions[user] == nil { armStaleTimer(for: user) }
    }

    /// One deadline per peer on the injected clock; each sighting moves it.
    func armStaleTimer(for user: UserID) {
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

    func cancelStaleTimer(for user: UserID) {
        staleTimers.removeValue(forKey: user)?.task.cancel()
    }

    /// A connection to `peer` could not be made (a controller refuses LE Create Connection
    /// while the peer is not connectable, e.g. between its accepting another central and
    /// advertising again): the peer is gone until it is heard again, so its next advertising
    /// report announces it afresh and automatic mode tries again on that event.
    func forget(_ peer: UserID) {
        cancelStaleTimer(for: peer)
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

    func take(_ turn: Turn) async {
        guard !turns.take(turn) else { return }
        await withCheckedContinuation { turns.enqueue(turn, $0) }
    }
}
