import Synchronization

/// An in-process radio for large topologies: nodes are user ids, edges say who is in range of
/// whom, and frames travel between connected nodes in memory, first in first out per receiver,
/// at once (or, with `airRate`, after their simulated air time). Edges may be added and removed at any time to move nodes in and out of range.
/// The same `Transmitter` code runs on it as on the BLE and TCP links (issue 5, "Links" (c)).
///
/// The network knows when it is quiet: every link event it queues counts as in flight until the
/// receiving transmitter asks for its next event (it handles one event, forwarding included,
/// before asking for the next), so `quiescent()` returns once no event is queued or being handled.
public final class SimulatedNetwork: Sendable {
    struct Mailbox {
        var queue: [LinkEvent] = []
        var head = 0
        var waiter: CheckedContinuation<LinkEvent?, Never>?
        /// An event was handed out and its handling has not finished.
        var outstanding = false
        var finished = false
        var user: UserID?
    }

    struct State {
        var edges: [UserID: Set<UserID>] = [:]
        var connections: [UserID: Set<UserID>] = [:]
        var running: [UserID: Int] = [:]
        var mailboxes: [Int: Mailbox] = [:]
        var nextToken = 0
        var inFlight = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var framesSent = 0
        /// Frames recorded while capturing, nil when not capturing.
        var capture: [SimulatedFrame]?
        /// The platform each link announces, by token (none when not given).
        var platforms: [Int: DevicePlatform] = [:]
    }

    /// Continuations to resume once the lock is released.
    struct Wakeups {
        var events: [(CheckedContinuation<LinkEvent?, Never>, LinkEvent?)] = []
        var idle: [CheckedContinuation<Void, Never>] = []

        func resume() {
            for (continuation, event) in events { continuation.resume(returning: event) }
            for continuation in idle { continuation.resume() }
        }
    }

    private let state = Mutex(State())
    /// Range by link: links are numbered 0, 1, … in the order `link(kind:)` made them.
    private let inRange: (@Sendable (Int, Int) -> Bool)?

    /// Bytes per second a link carries; nil: a frame arrives as it is sent.
    public let airRate: Int?
    /// Per link, the frame last put on the air: the next one waits for it (frames keep their order).
    private let air = Mutex<[Int: Task<LinkError?, Never>]>([:])

    /// An empty network; with `inRange`, each link that starts is put in range of every
    /// started link the function pairs it with (by link number), so a topology can be given
    /// before any user id exists. With `airRate`, a frame takes its size divided by the rate to
    /// cross, one frame at a time per link, and a connection that drops meanwhile loses it
    /// (`LinkError.connectionLost`): a send can then fail after the transmitter accepted it.
    public init(airRate: Int? = nil, inRange: (@Sendable (Int, Int) -> Bool)? = nil) {
        self.airRate = airRate.map { max(1, $0) }
        self.inRange = inRange
    }

    /// Waits while the link's earlier frames and then a frame of `bytes` cross the air, then
    /// lands it with `land` (its failure, if any) within the same turn: frames of one link
    /// arrive in the order they were sent, however their senders' tasks are scheduled.
    func crossAir(token: Int, bytes: Int, then land: @escaping @Sendable () -> LinkError?) async -> LinkError? {
        guard let airRate else { return land() }
        let duration = Duration.seconds(Double(bytes) / Double(airRate))
        let turn = air.withLock { tails in
            let previous = tails[token]
            let turn = Task { () -> LinkError? in
                _ = await previous?.value
                // The frame's air time is what is simulated here, not a wait for an event.
                try? await Task.sleep(for: duration)
                return land()
            }
            tails[token] = turn
            return turn
        }
        return await turn.value
    }

    /// Whether link `token` is connected to `peer` now.
    func isConnected(token: Int, to peer: UserID) -> Bool {
        state.withLock { state in
            guard let user = state.mailboxes[token]?.user else { return false }
            return state.connections[user]?.contains(peer) == true
        }
    }

    /// A new link; it joins the network as the user it is started with.
    public func link(kind: LinkKind = .ble, platform: DevicePlatform? = nil) -> SimulatedLink {
        let token = state.withLock { state in
            state.nextToken += 1
            state.platforms[state.nextToken] = platform
            return state.nextToken
        }
        return SimulatedLink(network: self, token: token, kind: kind)
    }

    /// The platform the running link of `user` announces, as a BLE announcement would carry it.
    func platform(of user: UserID) -> DevicePlatform? {
        state.withLock { state in state.running[user].flatMap { state.platforms[$0] } }
    }

    /// Puts `a` and `b` in range of each other.
    public func addEdge(_ a: UserID, _ b: UserID) {
        addEdges([(a, b)])
    }

    /// Puts every pair in range (one lock for all, for large topologies).
    public func addEdges(_ pairs: [(UserID, UserID)]) {
        mutate { state, wakeups in
            for (a, b) in pairs where a != b {
                guard state.edges[a, default: []].insert(b).inserted else { continue }
                state.edges[b, default: []].insert(a)
                if let ta = state.running[a], let tb = state.running[b] {
                    Self.enqueue(.peerNearby(b), to: ta, in: &state, &wakeups)
                    Self.enqueue(.peerNearby(a), to: tb, in: &state, &wakeups)
                }
            }
        }
    }

    /// Takes `a` and `b` out of range; a connection between them drops.
    public func removeEdge(_ a: UserID, _ b: UserID) {
        mutate { state, wakeups in
            guard state.edges[a]?.remove(b) != nil else { return }
            state.edges[b]?.remove(a)
            Self.dropConnection(a, b, in: &state, &wakeups)
            if let ta = state.running[a], let tb = state.running[b] {
                Self.enqueue(.peerGone(b), to: ta, in: &state, &wakeups)
                Self.enqueue(.peerGone(a), to: tb, in: &state, &wakeups)
            }
        }
    }

    /// The users in range of `user`.
    public func neighbours(of user: UserID) -> Set<UserID> {
        state.withLock { $0.edges[user] ?? [] }
    }

    /// Starts recording every frame carried (like a capture on the air), clearing earlier ones.
    public func startCapture() {
        state.withLock { $0.capture = [] }
    }

    /// The frames recorded since `startCapture()`, in the order they were sent.
    public var capturedFrames: [SimulatedFrame] { state.withLock { $0.capture ?? [] } }

    /// Frames carried so far.
    public var framesSent: Int { state.withLock { $0.framesSent } }

    /// Returns once no link event is queued or being handled anywhere in the network.
    public func quiescent() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.inFlight == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    // MARK: Link side

    /// A fresh event queue for a new `events()` stream of the link.
    func open(token: Int) {
        mutate { state, wakeups in
            if let old = state.mailboxes[token], let waiter = old.waiter { wakeups.events.append((waiter, nil)) }
            let user = state.mailboxes[token]?.user
            let pending = state.mailboxes[token].map { $0.queue.count - $0.head + ($0.outstanding ? 1 : 0) } ?? 0
            var box = Mailbox()
            box.user = user
            state.mailboxes[token] = box
            for _ in 0..<pending { Self.finishOne(in: &state, &wakeups) }
        }
    }

    func nextEvent(token: Int) async -> LinkEvent? {
        await withCheckedContinuation { (continuation: CheckedContinuation<LinkEvent?, Never>) in
            var immediate: LinkEvent?? = nil
            mutate { state, wakeups in
                guard state.mailboxes[token] != nil else {
                    state.mailboxes[token] = Mailbox(waiter: continuation)
                    return
                }
                if state.mailboxes[token]!.outstanding {
                    state.mailboxes[token]!.outstanding = false
                    Self.finishOne(in: &state, &wakeups)
                }
                immediate = Self.take(&state.mailboxes[token]!, waiter: continuation)
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// The next queued event (`.some(nil)` when finished), or nil after parking `waiter`.
    /// Mutates the mailbox in place so its queue is never copied.
    private static func take(_ box: inout Mailbox, waiter: CheckedContinuation<LinkEvent?, Never>) -> LinkEvent?? {
        if box.head < box.queue.count {
            let event = box.queue[box.head]
            box.head += 1
            if box.head > 1024, box.head * 2 > box.queue.count {
                box.queue.removeFirst(box.head)
                box.head = 0
            }
            box.outstanding = true
            return .some(event)
        }
        if box.finished { return .some(nil) }
        box.waiter = waiter
        return nil
    }

    func start(token: Int, user: UserID) throws(LinkError) {
        var failure: LinkError?
        mutate { state, wakeups in
            if let other = state.running[user], other != token {
                failure = LinkError(.unavailable, "user \(user) is already on the network")
                return
            }
            state.running[user] = token
            if let inRange {
                for (peer, peerToken) in state.running where peerToken != token && inRange(token - 1, peerToken - 1) {
                    state.edges[user, default: []].insert(peer)
                    state.edges[peer, default: []].insert(user)
                }
            }
            var box = state.mailboxes[token] ?? Mailbox()
            box.finished = false
            box.user = user
            state.mailboxes[token] = box
            for peer in state.edges[user] ?? [] {
                guard let peerToken = state.running[peer] else { continue }
                Self.enqueue(.peerNearby(peer), to: token, in: &state, &wakeups)
                Self.enqueue(.peerNearby(user), to: peerToken, in: &state, &wakeups)
            }
        }
        if let failure { throw failure }
    }

    func stop(token: Int) {
        mutate { state, wakeups in
            guard var box = state.mailboxes[token] else { return }
            if let user = box.user, state.running[user] == token {
                for peer in state.connections[user] ?? [] { Self.dropConnection(user, peer, in: &state, &wakeups) }
                state.running[user] = nil
                for peer in state.edges[user] ?? [] {
                    if let peerToken = state.running[peer] { Self.enqueue(.peerGone(user), to: peerToken, in: &state, &wakeups) }
                }
            }
            box = state.mailboxes[token] ?? box
            let pending = box.queue.count - box.head + (box.outstanding ? 1 : 0)
            box.queue = []
            box.head = 0
            box.outstanding = false
            box.finished = true
            if let waiter = box.waiter {
                wakeups.events.append((waiter, nil))
                box.waiter = nil
            }
            state.mailboxes[token] = box
            for _ in 0..<pending { Self.finishOne(in: &state, &wakeups) }
        }
    }

    func connect(token: Int, to peer: UserID) throws(LinkError) {
        var failure: LinkError?
        mutate { state, wakeups in
            guard let user = state.mailboxes[token]?.user, state.running[user] == token,
                  let peerToken = state.running[peer], state.edges[user]?.contains(peer) == true else {
                failure = LinkError(.peerUnreachable, "\(peer) is not in range")
                return
            }
            guard state.connections[user, default: []].insert(peer).inserted else { return }
            state.connections[peer, default: []].insert(user)
            Self.enqueue(.connected(peer), to: token, in: &state, &wakeups)
            Self.enqueue(.connected(user), to: peerToken, in: &state, &wakeups)
        }
        if let failure { throw failure }
    }

    func disconnect(token: Int, from peer: UserID) {
        mutate { state, wakeups in
            guard let user = state.mailboxes[token]?.user else { return }
            Self.dropConnection(user, peer, in: &state, &wakeups)
        }
    }

    func send(token: Int, frame: [UInt8], to peer: UserID) throws(LinkError) {
        var failure: LinkError?
        mutate { state, wakeups in
            guard let user = state.mailboxes[token]?.user, state.connections[user]?.contains(peer) == true,
                  let peerToken = state.running[peer] else {
                failure = LinkError(.peerUnreachable, "not connected to \(peer)")
                return
            }
            state.framesSent += 1
            state.capture?.append(SimulatedFrame(from: user, to: peer, bytes: frame))
            Self.enqueue(.frame(from: user, bytes: frame), to: peerToken, in: &state, &wakeups)
        }
        if let failure { throw failure }
    }

    // MARK: Internals (called with the lock held)

    private func mutate(_ body: (inout State, inout Wakeups) -> Void) {
        var wakeups = Wakeups()
        state.withLock { body(&$0, &wakeups) }
        wakeups.resume()
    }

    private static func enqueue(_ event: LinkEvent, to token: Int, in state: inout State, _ wakeups: inout Wakeups) {
        guard state.mailboxes[token]?.finished == false else { return }
        state.inFlight += 1
        if let waiter = state.mailboxes[token]!.waiter {
            state.mailboxes[token]!.waiter = nil
            state.mailboxes[token]!.outstanding = true
            wakeups.events.append((waiter, event))
        } else {
            state.mailboxes[token]!.queue.append(event)  // in place: no copy of the queue
        }
    }

    private static func finishOne(in state: inout State, _ wakeups: inout Wakeups) {
        state.inFlight -= 1
        if state.inFlight == 0 {
            wakeups.idle.append(contentsOf: state.idleWaiters)
            state.idleWaiters = []
        }
    }

    private static func dropConnection(_ a: UserID, _ b: UserID, in state: inout State, _ wakeups: inout Wakeups) {
        guard state.connections[a]?.remove(b) != nil else { return }
        state.connections[b]?.remove(a)
        if let ta = state.running[a] { enqueue(.disconnected(b), to: ta, in: &state, &wakeups) }
        if let tb = state.running[b] { enqueue(.disconnected(a), to: tb, in: &state, &wakeups) }
    }
}

/// One frame as the simulated network carried it.
public struct SimulatedFrame: Hashable, Sendable {
    public var from: UserID
    public var to: UserID
    public var bytes: [UInt8]
}
