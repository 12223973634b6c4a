import BlueproofTransmitter
import Foundation

/// The reference transmitter with faults at its API boundary: what a caller sees is wrong in
/// the way each `Defect` says, while the transmitter underneath works. Used only for the broken
/// variants that show every BFT case can fail.
public actor DefectiveTransmitter: TransmitterControl {
    let inner: any TransmitterControl
    /// The faults of this variant (the chat cases read the chat app's share).
    public nonisolated let defects: Set<Defect>
    private var mode: ConnectionMode?
    private var connected: Set<UserID> = []
    private var everSecure: Set<UserID> = []
    private var invalidKeysSaved: Set<UserID> = []
    private var firstPacketID: PacketID?
    /// Users an encrypted send was refused to after their secure connection lapsed.
    private var lapsed: Set<UserID> = []
    /// The expiration limit read back (``Defect/limitSparesExisting``), when not applied.
    private var sparedLimit: Int?
    private var limitSet = false
    /// Every user ever connected (``Defect/onDemandCapCountsClosed`` counts them).
    private var everConnected: Set<UserID> = []
    private var injected: [UUID: AsyncStream<TransmitterEvent>.Continuation] = [:]
    private var watcher: Task<Void, Never>?
    /// For the log faults (issue 14): whether a caller set a level, and how many starts were made.
    var levelSetByCaller = false
    /// ``Defect/logLevelPerInstance``: this instance's own level.
    var ownLevel = TransmitterLogLevel.error
    var starts = 0
    /// ``Defect/presentBeforeStart``: whether the transmitter underneath was started unasked.
    var startedUnasked = false

    /// The clock the wrapped transmitter reads (``Defect/sessionExpiresInAYear`` reads it too).
    private let clock: any TransmitterTimeSource
    /// When the session was first started on, by `clock`.
    private var sessionStarted: Date?

    public init(wrapping inner: any TransmitterControl, defects: Set<Defect>, clock: any TransmitterTimeSource = SystemTimeSource()) {
        self.inner = inner
        self.defects = defects
        self.clock = clock
    }

    /// ``Defect/sessionExpiresInAYear``: the session has lapsed by the wrapped clock.
    private var sessionLapsed: Bool {
        guard has(.sessionExpiresInAYear), let sessionStarted else { return false }
        return clock.now().timeIntervalSince(sessionStarted) > 365 * 86_400
    }

    private func has(_ defect: Defect) -> Bool { defects.contains(defect) }

    /// Follows the inner events the faults depend on (connections, secure connections).
    private func watch() async {
        guard watcher == nil else { return }
        let events = await inner.events()
        watcher = Task { [weak self] in
            for await event in events { await self?.observe(event) }
        }
    }

    private func observe(_ event: TransmitterEvent) async {
        track(event)
        if case .nearbyUser(let user) = event, has(.onDemandAutoConnects), mode == .onDemand {
            try? await inner.connect(to: user)
        }
        if case .connected(let user) = event, has(.handshakeOnEveryConnection) {
            try? await inner.establishSecureConnection(with: user)
        }
    }

    /// The connection state the faults read. Idempotent: every relay to a caller also tracks
    /// an event before passing it on, so a caller that saw `disconnected(user)` never meets a
    /// fault still deciding on `user` connected.
    private func track(_ event: TransmitterEvent) {
        switch event {
        case .connected(let user):
            connected.insert(user)
            everConnected.insert(user)
        case .disconnected(let user): connected.remove(user)
        case .secureConnection(let user): everSecure.insert(user)
        default: break
        }
    }

    private func inject(_ event: TransmitterEvent) {
        for continuation in injected.values { continuation.yield(event) }
    }

    public func events() async -> AsyncStream<TransmitterEvent> {
        await watch()
        await startUnaskedIfBroken()
        let upstream = await inner.events()
        let (stream, continuation) = AsyncStream<TransmitterEvent>.makeStream()
        let key = UUID()
        injected[key] = continuation
        let hidden = defects
        let relay = Task { [weak self] in
            for await event in upstream {
                await self?.track(event)
                switch event {
                case _ where hidden.contains(.mute): continue
                case .log where hidden.contains(.logSilent): continue
                case .log(let level, _) where hidden.contains(.logLevelPerInstance): if await self?.ownLevel ?? .error >= level { continuation.yield(event) }
                case .sentDirect where hidden.contains(.directNeverConfirmed): continue
                case .secureConnection where hidden.contains(.secureConnectionNeverCompletes): continue
                case .failed where hidden.contains(.directNeverFails): continue
                case .failed(_, let error) where hidden.contains(.failureNamesOtherPacket): continuation.yield(.failed(PacketID(), error))
                case .connected(let user) where hidden.contains(.connectionReportedSecure):
                    continuation.yield(event)
                    continuation.yield(.secureConnection(user))
                case _ where !hidden.isDisjoint(with: Self.eventFaults): if let changed = Self.altered(event, by: hidden) { continuation.yield(changed) }
                default: continuation.yield(event)
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return stream
    }

    public func start(mode: ConnectionMode) async throws(TransmitterError) {
        await watch()
        await logFaultsBeforeStart()
        do {
            try await inner.start(mode: startedMode(mode))
        } catch where has(.damagedSessionReplaced) {
            try await inner.destroySession()
            try await inner.start(mode: startedMode(mode))
        }
        self.mode = mode
        if sessionStarted == nil { sessionStarted = clock.now() }
    }

    public func stop() async {
        mode = nil
        if has(.stopKeepsLinks) { return inject(.stopped) }
        await inner.stop()
        if has(.restartNewIdentity) { try? await inner.destroySession() }
        await startUnaskedIfBroken()
    }

    public func localUser() async -> UserID? { sessionLapsed ? nil : await inner.localUser() }

    public func send(dictionary: [String: TransmitterValue]?, data: Data?, to receiver: UserID?, options: SendingOptions) async throws(TransmitterError) -> PacketID {
        do {
            if has(.dataSentApart), let dictionary, let data, !data.isEmpty {
                let id = try await faultySend(dictionary: dictionary, data: nil, to: receiver, options: options)
                _ = try await faultySend(dictionary: nil, data: data, to: receiver, options: options)
                return id
            }
            return try await faultySend(dictionary: dictionary, data: data, to: receiver, options: options)
        } catch {
            throw misreported(error)
        }
    }

    /// ``Defect/refusesForWrongReason``: the refusal stands, its reason does not.
    func misreported(_ error: TransmitterError) -> TransmitterError {
        guard has(.refusesForWrongReason) else { return error }
        return TransmitterError.sessionError.with(detail: "defect: \(error.name) reported as sessionError")
    }

    private func faultySend(dictionary: [String: TransmitterValue]?, data: Data?, to receiver: UserID?, options: SendingOptions) async throws(TransmitterError) -> PacketID {
        let broadcast = options.contains(.broadcastReceiver)
        if has(.encryptionRefused), options.contains(.encrypted) { throw .noSecureConnection.with(detail: "defect: encryption refused") }
        if has(.unencryptedRefused), !options.contains(.encrypted), !broadcast { throw .noSecureConnection.with(detail: "defect: plain sends refused") }
        if has(.broadcastRefused), broadcast { throw .broadcastOutsideMesh.with(detail: "defect: broadcast refused") }
        if has(.broadcastToOnePeer), broadcast, let peer = connected.sorted().first {
            return try await inner.send(dictionary: dictionary, data: data, to: peer, options: [.meshTransmission, .noEncrypted])
        }
        if has(.expiryImmediate), options.contains(.encrypted), let receiver, !connected.contains(receiver) {
            throw .noSecureConnection.with(detail: "defect: expiry immediate")
        }
        if has(.directDictionaryMeshLimited), options.contains(.directTransmission), let dictionary,
           let size = try? TransmitterPayload(dictionary: dictionary).dictionarySize, size > TransmitterLimits.documented.meshDictionaryBLESizeTable {
            throw .dictionaryTooLarge.with(detail: "defect: direct dictionaries held to the mesh limit")
        }
        if has(.encryptedBinaryLimitStrict), options.contains(.encrypted), let data, let limit = TransmitterLimits.documented.binaryBLE,
           data.count + Self.sealingAllowance > limit {
            throw .binaryTooLarge.with(detail: "defect: the sealed size is held to the binary limit")
        }
        if has(.expiryPermanent), options.contains(.encrypted), let receiver, lapsed.contains(receiver) {
            throw .noSecureConnection.with(detail: "defect: a lapsed secure connection is never renewed")
        }
        let id: PacketID
        do {
            id = try await inner.send(dictionary: sentForm(of: dictionary), data: data, to: receiver, options: options)
        } catch {
            if error == .noSecureConnection, let receiver, everSecure.contains(receiver) { lapsed.insert(receiver) }
            if has(.validationDeferred) {
                let fake = PacketID()
                inject(.failed(fake, error))
                return fake
            }
            let swallowed: Defect? = switch error {
            case .noDataToSend: .emptyPayloadAccepted
            case .binaryInBroadcast: .binaryInBroadcastAllowed
            case .missingReceiver: .missingReceiverAccepted
            case .broadcastWithReceiver: .broadcastWithReceiverAccepted
            case .functionNotAvailableInMode: .onDemandAllowsMesh
            case .noSecureConnection where receiver.map { everSecure.contains($0) } ?? false: .expiryNeverLapses
            case .noSecureConnection: .unknownKeyAccepted
            case .directReceiverNotInRange: .directNeverFails
            default: nil
            }
            guard let swallowed, has(swallowed) else { throw error }
            let fake = PacketID()
            if swallowed == .directNeverFails { inject(.sentDirect(fake)) }
            return fake
        }
        if has(.packetIDReused) {
            if let firstPacketID { return firstPacketID }
            firstPacketID = id
        }
        return id
    }

    public func transmissionSize(dictionary: [String: TransmitterValue]?, data: Data?) async throws(TransmitterError) -> Int {
        try await inner.transmissionSize(dictionary: dictionary, data: data)
    }

    public func connect(to user: UserID) async throws(TransmitterError) {
        if has(.onDemandNeverConnects) { return }
        if has(.onDemandCapCountsClosed), mode == .onDemand, !everConnected.contains(user),
           everConnected.count >= OnDemandCapCase.documentedCap {
            throw misreported(.connectionLimitReached.with(detail: "defect: closed connections still count against the cap"))
        }
        do { try await inner.connect(to: user) } catch { if !has(.connectToAnyone) { throw misreported(error) } }
    }

    public func disconnect(from user: UserID) async throws(TransmitterError) {
        if has(.disconnectIgnored) { return }
        do { try await inner.disconnect(from: user) } catch { if !has(.connectToAnyone) { throw misreported(error) } }
    }

    public func establishSecureConnection(with user: UserID) async throws(TransmitterError) {
        if has(.secureConnectionNeverCompletes) { return }
        do {
            try await inner.establishSecureConnection(with: user)
        } catch {
            guard has(.secureConnectionToAnyone) else { throw misreported(error) }
            inject(.secureConnection(user))
        }
    }

    public func secureConnectionExpirationLimit() async -> Int {
        if let sparedLimit { return sparedLimit }
        let limit = await inner.secureConnectionExpirationLimit()
        return has(.expirationDefaultWrong) && !limitSet ? limit + 1 : limit
    }

    public func setSecureConnectionExpirationLimit(_ seconds: Int) async throws(TransmitterError) {
        if has(.expirationLimitIgnored) { return }
        if has(.limitSparesExisting), !everSecure.isEmpty {
            sparedLimit = seconds
            return
        }
        try await inner.setSecureConnectionExpirationLimit(seconds)
        limitSet = true
    }

    public func answerSecureConnections(_ answer: Bool) async -> Bool {
        has(.secureAnswerIgnored) ? true : await inner.answerSecureConnections(answer)
    }

    public func localPublicKey() async throws(TransmitterError) -> String {
        if has(.publicKeyRandomised) { return Data((0..<64).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
        let key = try await inner.localPublicKey()
        return has(.publicKeyNotBase64) ? "key:" + key : key
    }

    public func savePublicKey(_ key: String, forUser user: UserID) async throws(TransmitterError) {
        if has(.keyNotStored) { return }
        do {
            try await inner.savePublicKey(key, forUser: user)
        } catch {
            guard has(.keyNotValidated) else { throw misreported(error) }
            invalidKeysSaved.insert(user)
        }
    }

    public func existsKey(forUser user: UserID) async -> Bool {
        if has(.keyAlwaysExists) || invalidKeysSaved.contains(user) { return true }
        if has(.keyNotStored) { return false }
        return await inner.existsKey(forUser: user)
    }

    public func hasSession() async -> Bool {
        if has(.hasSessionAlwaysTrue) { return true }
        if sessionLapsed { return false }
        return has(.hasSessionAlwaysFalse) ? false : await inner.hasSession()
    }

    /// What `.encryptedBinaryLimitStrict` adds to the binary part before comparing it with the
    /// limit: an RSA-2048 block and a tag, as a sender measuring the sealed size would.
    static let sealingAllowance = 256 + 16

    public func destroySession() async throws(TransmitterError) {
        if has(.sessionNotDestroyed) { return }
        try await inner.destroySession()
        await startUnaskedIfBroken()
    }

    public func setLogLevel(_ level: TransmitterLogLevel) async {
        levelSetByCaller = true
        ownLevel = level
        // One instance's level: the process logs everything, each instance shows its own share.
        await inner.setLogLevel(has(.logLevelPerInstance) && level != .error ? .trace : level)
    }

    public func saveState() async throws(TransmitterError) {
        if has(.saveStateNoop) { return }
        try await inner.saveState()
    }
}
