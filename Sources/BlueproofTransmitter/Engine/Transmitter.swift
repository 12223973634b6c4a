import Foundation
import Synchronization

/// The reference transmitter: the behaviour bridgefy-ios-sdk-readme.md documents, on any
/// `TransmitterLink` (BLE, TCP, or the simulated link). Validation is synchronous (`SendValidator`);
/// delivery, reception, mesh relaying and secure connections run on this actor as link events
/// arrive, one at a time. Time is read from the configured time source when needed; no timers.
///
/// Lifecycle and events: "2. Start transmitter", "3. Nearby peer detection"; delivery in
/// `Transmitter+Send.swift`, reception and relaying in `Transmitter+Receive.swift`, secure
/// connections in `Transmitter+Secure.swift`, session and keys in `Transmitter+Session.swift`.
public actor Transmitter: TransmitterControl {
    let configuration: TransmitterConfiguration
    var defects: TransmitterDefects { configuration.defects }
    var link: any TransmitterLink { configuration.link }
    var now: Date { configuration.timeSource.now() }

    /// The session in use: the configured one, or with `.sessionNotPersisted` a private one.
    var session: any TransmitterSessionBacking
    var mode: ConnectionMode?
    var identity: TransmitterIdentity?
    var router: MeshRouter?
    var nearby: Set<UserID> = []
    var connected: Set<UserID> = []
    /// On-demand connections asked for and not yet up.
    var requested: Set<UserID> = []
    /// Secure connections this side started and not yet answered.
    var pendingHandshakes: Set<UserID> = []
    var hellos: [UserID: HelloFrame] = [:]
    /// issue 15: the hello. This side's challenge on each link connection whose peer has not yet
    /// proved its id (Transmitter+Hello.swift); a peer is admitted (`connected`) on its proof.
    var helloChallenges: [UserID: [UInt8]] = [:]
    /// Connected users whose secure connection was live when they connected (or was made while
    /// connected): being in range keeps it alive ("Secure connections": activity).
    var liveSecure: Set<UserID> = []
    /// Behind a lock so that log lines, written synchronously wherever they are, become `log`
    /// events in order with the events around them.
    let subscribers = Mutex<[UUID: AsyncStream<TransmitterEvent>.Continuation]>([:])
    var linkTask: Task<Void, Never>?
    var statistics = TransmitterStatistics()
    /// The token of this transmitter's `log` events while it runs (`TransmitterLog.attach`).
    var logSink: UUID?
    /// The app's answer to shouldConnectSecurelyWithUser given at run time; nil: the configured one.
    var secureAnswer: Bool?
    /// The certificate `setLicence` gave, in place of the configured one.
    var licenceOverride: String?
    /// "Background mode": the application's declarations and where it is.
    var background = BackgroundState()
    // issue 15: atkA
    /// Set by the defects that model a receiver crashed by a hostile frame: no frame is taken after.
    var receiveHalted = false
    /// The delivered packets' ids, loaded from the session at start (`Transmitter+Replay`).
    var replayGuard: ReplayGuard?
    /// The attacker's relay (`interceptKeyRequests`): where key requests go instead of being answered.
    var keyRequestInterceptor: AsyncStream<UserID>.Continuation?

    public init(configuration: TransmitterConfiguration) {
        self.configuration = configuration
        self.session = configuration.session
    }

    // MARK: Events

    public func events() -> AsyncStream<TransmitterEvent> {
        let (stream, continuation) = AsyncStream<TransmitterEvent>.makeStream()
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    nonisolated func emit(_ event: TransmitterEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    // MARK: Lifecycle

    public func start(mode: ConnectionMode) async throws(TransmitterError) {
        guard self.mode == nil else {
            emit(.alreadyStarted)
            return
        }
        if (licenceOverride ?? configuration.licence).isEmpty { emit(.licenceNeedsNetwork) }
        do throws(TransmitterError) {
            _ = try configuration.licenceVerifier.verify(licenceOverride ?? configuration.licence, apiKey: configuration.apiKey, now: now)
            if defects.contains(.sessionNotPersisted), !(session is InMemorySession) {
                session = InMemorySession(identity: try TransmitterIdentity.generate())
            }
            let record = try session.loadOrCreate()
            identity = record.identity
        } catch {
            TransmitterLog.log(.error, "start failed: \(error.name)")
            emit(.startFailed(error))
            throw error
        }
        let user = identity!.userID
        attachLog(user)
        var router = MeshRouter(localUser: user, duplicateCapacity: configuration.duplicateCacheCapacity, defects: defects)
        if let saved = try? session.readFile(named: MeshStateFile.name), let packets = try? MeshStateFile.decode(saved) {
            router.restore(packets, now: now)
        }
        self.router = router
        replayGuard = loadReplayGuard()  // issue 15: atkA
        let stream = link.events()
        do throws(LinkError) {
            try await link.start(localUser: user)
        } catch {
            let failure = TransmitterError.notStarted.with(detail: "link unavailable: \(error)")
            TransmitterLog.log(.error, "link start failed: \(error.reason.rawValue)", user: user)
            await link.stop()  // whatever the link had started, so a later start begins afresh
            detachLog()
            emit(.bluetoothUnavailable)
            emit(.startFailed(failure))
            throw failure
        }
        self.mode = mode
        TransmitterLog.log(.info, "started in \(mode.rawValue) mode", user: user)
        emit(.started(mode))
        linkTask = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                await self.handle(event)
            }
        }
    }

    public func stop() async {
        guard mode != nil else { return }
        mode = nil
        await link.stop()
        linkTask = nil
        for peer in connected { refreshActivity(peer) }
        nearby = []
        connected = []
        requested = []
        helloChallenges = [:]
        pendingHandshakes = []
        liveSecure = []
        TransmitterLog.log(.info, "stopped", user: identity?.userID)
        detachLog()
        emit(.stopped)
    }

    /// Reports this transmitter's own log lines as `log` events ("Log levels"), in the order
    /// they were written.
    private func attachLog(_ user: UserID) {
        detachLog()
        logSink = TransmitterLog.attach(user: user, ignoringLevel: defects.contains(.logLevelIgnored)) { [weak self] level, text in
            self?.emit(.log(level, text))
        }
    }

    private func detachLog() {
        if let logSink { TransmitterLog.detach(logSink) }
        logSink = nil
    }

    public func localUser() -> UserID? { identity?.userID ?? (try? session.load())?.identity.userID }

    /// The counters so far.
    public func currentStatistics() -> TransmitterStatistics { statistics }

    /// The name and device type a peer sent in its hello, if any.
    public func peerInfo(_ user: UserID) -> HelloFrame? { hellos[user] }

    /// Users connected now.
    public func connectedUsers() -> Set<UserID> { connected }

    // MARK: Connections ("3. Nearby peer detection")

    public func connect(to user: UserID) async throws(TransmitterError) {
        guard let mode else { throw .notStarted }
        guard mode == .onDemand else { throw TransmitterError.functionNotAvailableInMode.with(detail: "connect is for on-demand mode") }
        guard !connected.contains(user) else { return }
        guard nearby.contains(user) else { throw TransmitterError.directReceiverNotInRange.with(detail: "\(user) is not nearby") }
        // A peer already linked and in its hello is no new connection (BFT/OND/BV-04).
        let open = openPeers.subtracting([user]).count
        if open >= configuration.maxOnDemandConnections && !defects.contains(.onDemandUncapped) {
            throw TransmitterError.connectionLimitReached.with(detail: "\(open) of \(configuration.maxOnDemandConnections) connections open")
        }
        requested.insert(user)
        do throws(LinkError) {
            try await link.connect(to: user)
        } catch {
            requested.remove(user)
            throw TransmitterError.directReceiverNotInRange.with(detail: "connect failed: \(error.reason.rawValue)")
        }
    }

    public func disconnect(from user: UserID) async throws(TransmitterError) {
        guard let mode else { throw .notStarted }
        guard mode == .onDemand else { throw TransmitterError.functionNotAvailableInMode.with(detail: "disconnect is for on-demand mode") }
        guard connected.contains(user) || requested.contains(user) else {
            throw TransmitterError.directReceiverNotInRange.with(detail: "not connected to \(user)")
        }
        requested.remove(user)
        await link.disconnect(from: user)
    }

    public func setLogLevel(_ level: TransmitterLogLevel) { TransmitterLog.level = level }

    // MARK: Link events

    func handle(_ event: LinkEvent) async {
        guard mode != nil else { return }
        switch event {
        case .peerNearby(let peer):
            nearby.insert(peer)
            if mode == .automatic {
                try? await link.connect(to: peer)
            } else {
                emit(.nearbyUser(peer))
            }
        case .peerGone(let peer):
            nearby.remove(peer)
            requested.remove(peer)
        case .connected(let peer):
            await peerConnected(peer)
        case .disconnected(let peer):
            requested.remove(peer)
            helloChallenges[peer] = nil
            pendingHandshakes.remove(peer)
            guard connected.contains(peer) else { return }
            refreshActivity(peer)
            connected.remove(peer)
            liveSecure.remove(peer)
            TransmitterLog.log(.debug, "disconnected from \(peer)", user: identity?.userID)
            emit(.disconnected(peer))
        case .frame(let peer, let bytes):
            await frameArrived(bytes, from: peer)
        }
    }

    /// The peers that count against the on-demand cap ("Connect on demand"): connected, asked
    /// for, or linked and still in the hello (a peer moves from `requested` to
    /// `helloChallenges` to `connected` without a suspension between).
    var openPeers: Set<UserID> { connected.union(requested).union(helloChallenges.keys) }

    private func peerConnected(_ peer: UserID) async {
        if mode == .onDemand, !requested.contains(peer), !defects.contains(.onDemandUncapped),
           openPeers.count >= configuration.maxOnDemandConnections {
            await link.disconnect(from: peer)
            return
        }
        requested.remove(peer)
        guard !connected.contains(peer), identity != nil else { return }
        await challenge(peer)
    }

    /// The peer proved its id in its hello (or, with `.unsignedHello`, the link named it):
    /// it is connected.
    func admit(_ peer: UserID) async {
        // After the hellos, so the dropped peer has met this side first (as before issue 15).
        if mode == .automatic, defects.contains(.automaticSinglePeer), !connected.isEmpty, !connected.contains(peer) {
            await link.disconnect(from: peer)
            return
        }
        guard !connected.contains(peer), let identity else { return }
        if secureConnectionIsLive(peer) { liveSecure.insert(peer) }
        connected.insert(peer)
        refreshActivity(peer)
        TransmitterLog.log(.debug, "connected to \(peer)", user: identity.userID)
        emit(.connected(peer))
        if secureAnswer ?? configuration.shouldConnectSecurely(peer) {
            await requestSecureConnection(peer)
        }
        if let actions = router?.neighbourConnected(peer, now: now) {
            await perform(actions)
        }
    }

    private func frameArrived(_ bytes: [UInt8], from peer: UserID) async {
        guard !receiveHalted else { return }  // issue 15: atkA
        let frame: TransmitterFrame
        do throws(FrameError) {
            frame = try TransmitterFrame.decode(bytes)
        } catch {
            statistics.rejected += 1
            statistics.countFrame(nil, from: peer)
            if defects.contains(.malformedFrameStopsReceiver) { receiveHalted = true }  // issue 15: atkA
            TransmitterLog.log(.debug, "undecodable frame from \(peer): \(error)", user: identity?.userID)
            return
        }
        statistics.countFrame(frame.kind, from: peer)
        // issue 15: the hello. Nothing but hellos from a peer that has not proved its id.
        if case .hello = frame {} else if !connected.contains(peer) {
            statistics.rejected += 1
            TransmitterLog.log(.debug, "frame from \(peer) before its hello proved that id: dropped", user: identity?.userID)
            return
        }
        switch frame {
        case .hello(let hello):
            await helloArrived(hello, from: peer)
        case .keyRequest(let request):
            await keyRequestArrived(request, from: peer)
        case .keyResponse(let response):
            keyResponseArrived(response, from: peer)
        case .data(let data):
            await dataArrived(data, from: peer)
        }
    }
}
