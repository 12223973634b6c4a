import BlueproofAsync
import Synchronization

/// A node with both of the iOS framework's links (bridgefy-ios-sdk-readme.md, "Connections with
/// Android devices"): BLE, which every peer shares, and Wi-Fi peer-to-peer, used only when this
/// node and the peer are both iOS devices; with any other peer (Android, or a platform not
/// announced) every frame goes over BLE.
///
/// BLE is the node's view of its peers: its nearby, connected and disconnected events pass
/// through, and `connect`/`disconnect` act on it. The Wi-Fi link is a faster carrier beside it:
/// its connection with a peer opens when a frame is first sent to that peer over it, and only
/// its frames reach the transmitter. The peer's platform is learnt from its BLE announcement
/// before the peer is reported nearby or connected, so before any frame is sent.
///
/// What crossed each link with a peer, as this end saw it, is kept (``carriage(of:)``).
///
/// No frame comes before its connection: a Wi-Fi frame from a peer the BLE link has not yet
/// reported connected (a hello sent over Wi-Fi outruns BLE's own `.connected`, since loopback
/// TCP is faster than a controller) is held, at most ``heldLimit`` per peer, and passed on
/// right after that `.connected`, as the BLE link holds its own early frames.
public final class DualLink: TransmitterLink {
    /// Wi-Fi frames held per peer until BLE reports it connected; past it they are dropped.
    public static let heldLimit = 8
    /// Ways a broken node chooses its carrier (the broken variants of BFT/SIZE/BV-14 and BV-03).
    public struct Faults: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Sends over Wi-Fi to every peer it reaches there, whatever the platforms.
        public static let wifiToAnyPeer = Faults(rawValue: 1 << 0)
        /// Sends over the right carrier, but sizes packets to every peer by the Wi-Fi limits,
        /// whatever the platforms.
        public static let wifiLimitsToAnyPeer = Faults(rawValue: 1 << 1)
    }

    /// What this node saw of one peer: whether the Wi-Fi link reaches it (their hellos
    /// crossed it), and the frames taken from it on each carrier.
    public struct Carriage: Hashable, Sendable {
        public var onWiFi = false
        public var bleFrames = 0
        public var wifiFrames = 0
        public init() {}
    }

    private struct State {
        var peerPlatforms: [UserID: DevicePlatform] = [:]
        /// Peers the Wi-Fi link reports nearby, and those it has a connection with.
        var onWiFi: Set<UserID> = []
        var wifiConnected: Set<UserID> = []
        var arrivals: [UserID: Carriage] = [:]

        func carriage(of peer: UserID) -> Carriage {
            var carriage = arrivals[peer] ?? Carriage()
            carriage.onWiFi = onWiFi.contains(peer)
            return carriage
        }

        func carrier(to peer: UserID, from platform: DevicePlatform, ignoringPlatforms: Bool) -> LinkKind {
            guard onWiFi.contains(peer) else { return .ble }
            let bothIOS = platform == .ios && peerPlatforms[peer] == .ios
            return bothIOS || ignoringPlatforms ? .wifi : .ble
        }
    }

    public let platform: DevicePlatform
    public let faults: Faults
    private let ble: any PlatformAnnouncingLink
    private let wifi: any TransmitterLink
    private let state = Watched(State())

    /// The peers BLE reported connected and the Wi-Fi frames held for the others; events are
    /// yielded under its lock, so a released frame never passes its `.connected`.
    private struct Gate {
        var connected: Set<UserID> = []
        var held: [UserID: [[UInt8]]] = [:]
        var dropped = 0
    }
    private let gate = Mutex(Gate())

    public init(ble: any PlatformAnnouncingLink, wifi: any TransmitterLink, platform: DevicePlatform, faults: Faults = []) {
        self.ble = ble
        self.wifi = wifi
        self.platform = platform
        self.faults = faults
    }

    public var kind: LinkKind { .ble }

    /// Wi-Fi for a peer this node sends to over Wi-Fi (or, broken, sizes as if it did).
    public func kind(to peer: UserID) -> LinkKind { state.read { kind(in: $0, to: peer) } }

    private func kind(in state: State, to peer: UserID) -> LinkKind {
        if faults.contains(.wifiLimitsToAnyPeer) { return .wifi }
        return state.carrier(to: peer, from: platform, ignoringPlatforms: faults.contains(.wifiToAnyPeer))
    }

    /// What this node saw of `peer` so far.
    public func carriage(of peer: UserID) -> Carriage { state.read { $0.carriage(of: peer) } }

    /// What this node saw of `peer` once `condition` holds of it, checked now and at every
    /// change (link state has no event of its own); nil when it does not within `timeout`.
    public func carriage(of peer: UserID, within timeout: Duration,
                         where condition: @escaping @Sendable (Carriage) -> Bool) async -> Carriage? {
        await state.wait(within: timeout) { condition($0.carriage(of: peer)) }?.carriage(of: peer)
    }

    /// Waits until `condition` holds of the carrier this node picks for `peer`; whether it did
    /// within `timeout`.
    public func kind(to peer: UserID, within timeout: Duration, where condition: @escaping @Sendable (LinkKind) -> Bool) async -> Bool {
        await state.wait(within: timeout) { condition(self.kind(in: $0, to: peer)) } != nil
    }

    private func carrier(to peer: UserID, ignoringPlatforms: Bool) -> LinkKind {
        state.read { $0.carrier(to: peer, from: platform, ignoringPlatforms: ignoringPlatforms) }
    }

    public func events() -> AsyncStream<LinkEvent> {
        let (stream, output) = AsyncStream.makeStream(of: LinkEvent.self)
        let bleEvents = ble.events()
        let wifiEvents = wifi.events()
        Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in bleEvents {
                        await self.learnPlatform(from: event)
                        self.passBLE(event, to: output)
                    }
                }
                group.addTask {
                    for await event in wifiEvents where self.wifiEvent(event) { self.passWiFi(event, to: output) }
                }
            }
            output.finish()
        }
        return stream
    }

    /// Passes a BLE event on; a `.connected` releases the Wi-Fi frames held for that peer.
    private func passBLE(_ event: LinkEvent, to output: AsyncStream<LinkEvent>.Continuation) {
        gate.withLock { gate in
            output.yield(event)
            switch event {
            case .connected(let peer):
                gate.connected.insert(peer)
                for bytes in gate.held.removeValue(forKey: peer) ?? [] { output.yield(.frame(from: peer, bytes: bytes)) }
            case .disconnected(let peer), .peerGone(let peer):
                gate.connected.remove(peer)
                gate.held[peer] = nil
            case .peerNearby, .frame:
                break
            }
        }
    }

    /// Passes a Wi-Fi frame on if BLE reported its peer connected, else holds it (or drops it
    /// past ``heldLimit``).
    private func passWiFi(_ event: LinkEvent, to output: AsyncStream<LinkEvent>.Continuation) {
        guard case let .frame(peer, bytes) = event else {
            output.yield(event)
            return
        }
        gate.withLock { gate in
            if gate.connected.contains(peer) {
                output.yield(event)
            } else if gate.held[peer, default: []].count < Self.heldLimit {
                gate.held[peer, default: []].append(bytes)
            } else {
                gate.dropped += 1
            }
        }
    }

    /// Wi-Fi frames dropped because more than ``heldLimit`` came from a peer before BLE
    /// reported it connected.
    public var droppedEarlyFrames: Int { gate.withLock { $0.dropped } }

    /// Records the platform a BLE peer announced before its event goes on, and counts frames.
    private func learnPlatform(from event: LinkEvent) async {
        switch event {
        case .peerNearby(let peer), .connected(let peer):
            let announced = await ble.announcedPlatform(of: peer)
            state.update { $0.peerPlatforms[peer] = announced }
        case .frame(let peer, _):
            state.update { $0.arrivals[peer, default: Carriage()].bleFrames += 1 }
        case .peerGone, .disconnected:
            break
        }
    }

    /// Tracks the Wi-Fi link's peers; true for the events that go on to the transmitter (frames).
    private func wifiEvent(_ event: LinkEvent) -> Bool {
        state.update { state in
            switch event {
            case .peerNearby(let peer): state.onWiFi.insert(peer)
            case .peerGone(let peer):
                state.onWiFi.remove(peer)
                state.wifiConnected.remove(peer)
            case .connected(let peer): state.wifiConnected.insert(peer)
            case .disconnected(let peer): state.wifiConnected.remove(peer)
            case .frame(let peer, _):
                state.arrivals[peer, default: Carriage()].wifiFrames += 1
                return true
            }
            return false
        }
    }

    public func start(localUser: UserID) async throws(LinkError) {
        try await ble.start(localUser: localUser)
        do throws(LinkError) {
            try await wifi.start(localUser: localUser)
        } catch {
            await ble.stop()
            throw error
        }
    }

    public func stop() async {
        await wifi.stop()
        await ble.stop()
    }

    public func connect(to peer: UserID) async throws(LinkError) {
        try await ble.connect(to: peer)
    }

    public func disconnect(from peer: UserID) async {
        if state.read({ $0.wifiConnected.contains(peer) }) { await wifi.disconnect(from: peer) }
        await ble.disconnect(from: peer)
    }

    public func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        guard carrier(to: peer, ignoringPlatforms: faults.contains(.wifiToAnyPeer)) == .wifi else {
            try await ble.send(frame, to: peer)
            return
        }
        if !state.read({ $0.wifiConnected.contains(peer) }) {
            try await wifi.connect(to: peer)
            state.update { _ = $0.wifiConnected.insert(peer) }
        }
        try await wifi.send(frame, to: peer)
    }
}
