import BlueproofAsync
import BlueproofHost
import BlueproofWire

/// Carries a `SparkCore` over LE credit-based channels of an `LEHost` (docs/spark-wire.md):
/// one channel per peer, a `hello` each way first to name the peer (the listener's first, the
/// opener's once it has it; the host keeps SDUs that arrive before a reader asks), then one
/// frame per SDU.
/// The core's frames are pulled one at a time as the host's `send` returns, so L2CAP credits
/// are the back-pressure; a channel that closes is the peer's link lost.
public actor SparkChannelNode {
    /// The SPSM Spark listens on (dynamic range, Vol 3, Part A §4.22).
    public static let spsm = L2CAPSPSM(0x0081)
    /// The credits this side gives at once (the host's default); it gives more as they are used.
    public static let credits: UInt16 = 64
    /// How long the peer's `hello` may take once the channel is open.
    public static let helloTimeout: Duration = .seconds(10)

    public let host: LEHost
    private(set) var core: SparkCore
    /// Where a peer's key is looked up once its `hello` names it (the key directory of
    /// `blueproof spark`); nil when keys are recorded by other means.
    private let keys: (@Sendable (UInt64) -> [UInt8]?)?
    private var wakers: [UInt64: AsyncStream<Void>.Continuation] = [:]
    private var channels: [UInt64: L2CAPChannel] = [:]
    /// What ``drain(_:)`` waits on (SparkChannelNode+Drain.swift).
    var ledger = SparkDrainLedger()
    private let eventSink: AsyncStream<SparkEvent>.Continuation
    /// Every event of the core, in order.
    public nonisolated let events: AsyncStream<SparkEvent>

    public init(host: LEHost, core: SparkCore, keys: (@Sendable (UInt64) -> [UInt8]?)? = nil) {
        self.host = host
        self.core = core
        self.keys = keys
        (events, eventSink) = AsyncStream.makeStream(of: SparkEvent.self)
    }

    /// Accepts Spark channels from every connection; each names its peer with its `hello`.
    public func listen(mtu: UInt16 = UInt16(SparkLimits.maxFrameBytes)) async {
        let channels = await host.listen(spsm: Self.spsm, mtu: mtu, mps: Self.mps(aclBufferSize: await host.aclBuffers.size), credits: Self.credits)
        Task {
            // Each channel waits for its own hello: a silent one holds up no other.
            for await channel in channels { Task { _ = try? await self.attach(channel, opener: false) } }
        }
    }

    /// Opens a Spark channel on `connection`; returns the peer's registration id from its `hello`.
    public func open(on connection: LEConnection, mtu: UInt16 = UInt16(SparkLimits.maxFrameBytes)) async throws -> UInt64 {
        try await attach(try await Self.openChannel(host, on: connection, mtu: mtu), opener: true)
    }

    /// Opens a channel at the Spark SPSM on `connection` with a node's parameters, nothing
    /// attached to it (a tester that withholds its `hello` reads and writes it itself).
    public static func openChannel(_ host: LEHost, on connection: LEConnection, mtu: UInt16 = UInt16(SparkLimits.maxFrameBytes)) async throws -> L2CAPChannel {
        try await host.openChannel(on: connection, spsm: spsm, mtu: mtu, mps: mps(aclBufferSize: await host.aclBuffers.size), credits: credits)
    }

    /// Connects `host` to the listener at `address` over LE, as a peer that found it does (5 s).
    public static func connect(_ host: LEHost, to address: BDAddress) async throws -> LEConnection {
        try await host.connect(to: address, type: .publicDevice, timeout: .seconds(5))
    }

    /// Connects to the listener at `address` over LE and opens the Spark channel on that link;
    /// `made` sees the connection before the channel opens. Returns the registration id the
    /// listener's `hello` names.
    public func connectAndOpen(to address: BDAddress, made: @Sendable (LEConnection) -> Void = { _ in }) async throws -> UInt64 {
        let connection = try await Self.connect(host, to: address)
        made(connection)
        return try await open(on: connection)
    }

    /// Runs `body` on the core, then publishes its events and wakes the senders with frames waiting.
    public func perform<T: Sendable>(_ body: (inout SparkCore) throws -> T) rethrows -> T {
        defer { flush() }
        return try body(&core)
    }

    private func attach(_ channel: L2CAPChannel, opener: Bool) async throws -> UInt64 {
        let inbound = await host.incomingSDUs(on: channel)
        let hello = try SparkEnvelope(origin: .sender, connection: 0, frame: .hello(registrationID: core.configuration.registrationID)).encoded()
        let listenerFirst = !opener && !core.configuration.defects.contains(.listenerHelloWithheld)
        if listenerFirst { try await host.send(hello, on: channel) }
        let named = OneShot<UInt64>()
        Task {
            var peer: UInt64?
            for await sdu in inbound {
                guard let known = peer else {
                    // A hello after the wait was given up names no peer: the channel is closing.
                    guard case .hello(let id)? = (try? SparkEnvelope.decode(sdu))?.frame, named.resolve(id) else { break }
                    peer = id
                    self.named(id, on: channel)
                    continue
                }
                self.receive(sdu, from: known)
            }
            if let peer { self.lost(peer, on: channel) }
            _ = named.resolve(0)
        }
        // A channel whose peer names itself neither in time nor at all is closed, not kept.
        _ = try? await withTimeout(Self.helloTimeout, what: "the peer's Spark hello") { await named.wait() }
        // Over for good: a hello that comes later finds `named` resolved and names no peer.
        let peer = named.resolve(0) ? 0 : named.current ?? 0
        if core.configuration.defects.contains(.channelKeptWithoutHello) {
            guard peer != 0 else { throw LEHostError.channelRefused(spsm: Self.spsm, reason: "no Spark hello") }
        }
        guard peer != 0 else {
            await host.close(channel)
            throw LEHostError.channelRefused(spsm: Self.spsm, reason: "no Spark hello")
        }
        if !listenerFirst { try await host.send(hello, on: channel) }
        let (wake, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        guard channels[peer] == channel else { throw LEHostError.channelClosed(cid: channel.local.cid) }
        wakers[peer] = waker
        Task {
            for await _ in wake {
                while let frame = self.next(for: peer, on: channel) {
                    if await self.creditFault(on: channel) {
                        self.sent(to: peer, on: channel)
                        continue
                    }
                    do { try await self.host.send(frame, on: channel) } catch { return self.lost(peer, on: channel) }
                    self.sent(to: peer, on: channel)
                }
            }
        }
        flush()
        return peer
    }

    /// Two broken variants' faults, run before each frame goes out on a channel with no send
    /// credit left (§10.1): `stalledFramesDropped` drops the frame (true), `creditsOverrun`
    /// acts as if the peer had granted more.
    private func creditFault(on channel: L2CAPChannel) async -> Bool {
        let defects = core.configuration.defects
        if defects.contains(.stalledFramesDropped), await host.sendCredits(on: channel) == 0 { return true }
        if defects.contains(.creditsOverrun), await host.sendCredits(on: channel) == 0 { await host.assumeCredits(8, on: channel) }
        return false
    }

    private func receive(_ sdu: [UInt8], from peer: UInt64) {
        core.receive(sdu, from: peer)
        flush()
    }

    /// `peer` named itself on `channel`. A second channel naming a peer already attached
    /// means the first one's link went away unreported (a peer that restarted): the newest
    /// wins, and the old one's connections end as lost.
    private func named(_ peer: UInt64, on channel: L2CAPChannel) {
        if let old = channels[peer], old != channel, !core.configuration.defects.contains(.restartKeepsOldChannel) {
            lost(peer, on: old)
            Task { await host.close(old) }
        }
        channels[peer] = channel
        if let key = keys?(peer) { core.recordKey(key, for: peer) }
    }

    /// The next frame for `peer`, while `channel` is still its channel.
    private func next(for peer: UInt64, on channel: L2CAPChannel) -> [UInt8]? {
        guard channels[peer] == channel else { return nil }
        defer { flush() }
        let frame = core.nextFrame(for: peer)
        if frame != nil { ledger.taken(by: peer) }
        return frame
    }

    private func sent(to peer: UInt64, on channel: L2CAPChannel) {
        guard channels[peer] == channel else { return }
        ledger.sent(to: peer)
        flush()
    }

    func channel(of peer: UInt64) throws(LEHostError) -> L2CAPChannel {
        guard let channel = channels[peer] else { throw .channelRefused(spsm: Self.spsm, reason: "no Spark channel to \(peer)") }
        return channel
    }

    /// `channel` to `peer` closed: its connections end as lost, unless a newer channel took its place.
    private func lost(_ peer: UInt64, on channel: L2CAPChannel) {
        guard channels[peer] == channel else { return }
        wakers.removeValue(forKey: peer)?.finish()
        channels[peer] = nil
        ledger.lost(peer)
        core.linkLost(peer)
        flush()
    }

    private func flush() {
        for event in core.takeEvents() { eventSink.yield(event) }
        let pending = core.pendingPeers
        for peer in pending { wakers[peer]?.yield() }
        ledger.settle(pending: pending)
    }
}
