import BlueproofAsync
import BlueproofTransmitter
import BlueproofTransport
import Logging

/// The transmitter's Wi-Fi-like link: TCP between nodes on this machine
/// (docs/transmitter-links.md, "TCP"; issue 5, "Links").
///
/// Each node listens on ``TCPLinkConfiguration/listen`` and dials every peer address it was
/// given, again after ``TCPLinkConfiguration/probeInterval`` on the injected clock while one
/// does not answer. Both sides say hello with their user id; as over BLE, the connection the
/// lower `UserID` dialed is the pair's one (the higher id's dial only learns the peer is there),
/// so every peer address must be known to the lower node. A peer is nearby while that
/// connection is up; when it closes, the lower side dials once more and the peer is gone if
/// that fails. `connect`/`disconnect` are messages on the connection, so both sides report them.
public actor TCPLink: TransmitterLink {
    public nonisolated let kind: LinkKind = .wifi
    public let configuration: TCPLinkConfiguration
    let clock: any Clock<Duration>
    let logger: Logger
    private nonisolated let stream: AsyncStream<LinkEvent>
    private let output: AsyncStream<LinkEvent>.Continuation

    private struct Session {
        let stream: TCPStream
        var connected = false
        let ended = OneShot<Bool>()
    }

    private var localUser: UserID?
    private var stopped = false
    private var listener: StreamListener?
    private var peerAddresses: [TCPAddress] = []
    private var tasks: [Task<Void, Never>] = []
    /// Each connection's reader, dropped when it ends.
    private var streamTasks: [ObjectIdentifier: Task<Void, Never>] = [:]
    private var sessions: [UserID: Session] = [:]
    private var nearby: Set<UserID> = []
    /// Peers whose address a probe dialed: their loss is decided by that probe's redial.
    private var probed: Set<UserID> = []

    public init(configuration: TCPLinkConfiguration = TCPLinkConfiguration(),
                clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger ?? Logger(label: "blueproof.link.tcp")
        (stream, output) = AsyncStream.makeStream(of: LinkEvent.self)
    }

    public nonisolated func events() -> AsyncStream<LinkEvent> { stream }

    /// The longest message body accepted: a frame of the limit with its kind octet, or a hello.
    private var messageLimit: Int { max(configuration.frameLimit + 1, 17) }

    /// Where this node listens, once started (the port chosen when 0 was asked for).
    public var listeningAddress: TCPAddress? {
        listener?.tcpPort.map { TCPAddress(host: configuration.listen.host, port: $0) }
    }

    public func start(localUser user: UserID) async throws(LinkError) {
        guard localUser == nil, !stopped else { throw LinkError(.unavailable, "the TCP link was already started") }
        let listener: StreamListener
        do {
            listener = try StreamListener(listeningOn: .tcp(host: configuration.listen.host, port: configuration.listen.port))
        } catch {
            throw LinkError(.unavailable, "cannot listen on \(configuration.listen): \(error)")
        }
        localUser = user
        self.listener = listener
        let limit = messageLimit
        tasks.append(Task { [weak self] in
            for await socket in listener.connections {
                guard let self else { break }
                let stream = TCPStream(socket, limit: limit)
                await self.attach(stream, dialed: false)
            }
        })
        for address in configuration.peers { addPeer(address) }
    }

    /// Adds a peer address to dial (its listener may come and go).
    public func addPeer(_ address: TCPAddress) {
        guard !stopped, localUser != nil, !peerAddresses.contains(address) else { return }
        peerAddresses.append(address)
        tasks.append(Task { [weak self] in await self?.probe(address) })
    }

    public func stop() async {
        guard !stopped else { return }
        stopped = true
        for task in tasks + streamTasks.values { task.cancel() }
        tasks = []
        streamTasks = [:]
        listener?.close()
        for (user, session) in sessions {
            session.stream.close()
            session.ended.resolve(true)
            if session.connected { output.yield(.disconnected(user)) }
        }
        sessions = [:]
        output.finish()
    }

    // MARK: Presence

    /// Dials `address` until it answers, keeps the connection while it lasts, and dials again
    /// at once when it ends: a failed redial makes the peer gone.
    private func probe(_ address: TCPAddress) async {
        let limit = messageLimit
        var known: UserID?
        while !stopped, !Task.isCancelled {
            if let user = known, let session = sessions[user] { _ = await session.ended.wait() }
            guard !stopped, !Task.isCancelled else { return }
            do {
                let stream = try await TCPStream.dial(address, limit: limit)
                if let user = await attach(stream, dialed: true) {
                    known = user
                    if sessions[user] != nil { continue }
                } else if let user = known {
                    // Accepted by the kernel but no hello (a listener closing): not there.
                    lost(user)
                }
            } catch {
                if let user = known { lost(user) }
            }
            guard (try? await sleep(on: clock, for: configuration.probeInterval)) != nil else { return }
        }
    }

    /// Hello both ways, then admits the connection if it is the pair's one (dialed by the lower
    /// id); returns the peer's user once known, admitted or not.
    @discardableResult
    private func attach(_ stream: TCPStream, dialed: Bool) async -> UserID? {
        guard let localUser, !stopped else {
            stream.close()
            return nil
        }
        let hello = OneShot<UserID?>()
        let id = ObjectIdentifier(stream)
        streamTasks[id] = Task { [weak self] in
            await self?.serve(stream, localUser: localUser, dialed: dialed, hello: hello)
            hello.resolve(nil)
            await self?.forget(id)
        }
        return await hello.wait() ?? nil
    }

    /// The hellos, then every message until the connection ends.
    private nonisolated func serve(_ stream: TCPStream, localUser: UserID, dialed: Bool, hello: OneShot<UserID?>) async {
        guard await stream.write(TCPMessage.hello(localUser).encoded) else {
            stream.close()
            return
        }
        var messages = stream.messages.makeAsyncIterator()
        guard let body = await messages.next(), case let .hello(user)? = TCPMessage(body: body), user != localUser else {
            stream.close()
            return
        }
        let admitted = await admit(user, stream, dialed: dialed)
        hello.resolve(user)
        guard admitted else {
            stream.close()
            return
        }
        while let body = await messages.next() { await received(body, from: user, on: stream) }
        await ended(user, stream)
    }

    private func forget(_ id: ObjectIdentifier) { streamTasks[id] = nil }

    private func admit(_ user: UserID, _ stream: TCPStream, dialed: Bool) -> Bool {
        guard let localUser, !stopped else { return false }
        if dialed { probed.insert(user) }
        // The lower id dials; the higher id's dial only showed the peer is there.
        guard dialed == (localUser < user), sessions[user] == nil else { return false }
        sessions[user] = Session(stream: stream)
        if nearby.insert(user).inserted { output.yield(.peerNearby(user)) }
        return true
    }

    private func ended(_ user: UserID, _ stream: TCPStream) {
        guard let session = sessions[user], session.stream === stream else { return }
        sessions[user] = nil
        session.ended.resolve(true)
        if session.connected { output.yield(.disconnected(user)) }
        // With no probe of its address, nothing will redial it.
        if !probed.contains(user) { lost(user) }
    }

    private func lost(_ user: UserID) {
        guard sessions[user] == nil, nearby.remove(user) != nil else { return }
        output.yield(.peerGone(user))
    }

    // MARK: Connections and frames

    private func received(_ body: [UInt8], from user: UserID, on stream: TCPStream) {
        guard sessions[user]?.stream === stream else { return }
        switch TCPMessage(body: body) {
        case .open?:
            guard sessions[user]?.connected == false else { return }
            sessions[user]?.connected = true
            output.yield(.connected(user))
        case .close?:
            guard sessions[user]?.connected == true else { return }
            sessions[user]?.connected = false
            output.yield(.disconnected(user))
        case let .frame(bytes)?:
            guard sessions[user]?.connected == true else {
                logger.debug("frame from \(user) before it connected; dropped")
                return
            }
            output.yield(.frame(from: user, bytes: bytes))
        case .hello?, nil:
            logger.debug("unexpected message from \(user); closing")
            stream.close()
        }
    }

    public func connect(to peer: UserID) async throws(LinkError) {
        guard let session = sessions[peer] else { throw LinkError(.peerUnreachable, "\(peer) is not nearby") }
        if session.connected { return }
        sessions[peer]?.connected = true
        output.yield(.connected(peer))
        guard await session.stream.write(TCPMessage.open.encoded) else {
            throw LinkError(.connectionLost, "the connection to \(peer) closed")
        }
    }

    public func disconnect(from peer: UserID) async {
        guard let session = sessions[peer], session.connected else { return }
        sessions[peer]?.connected = false
        output.yield(.disconnected(peer))
        _ = await session.stream.write(TCPMessage.close.encoded)
    }

    public func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        guard let session = sessions[peer], session.connected else {
            throw LinkError(.peerUnreachable, "\(peer) is not connected")
        }
        guard frame.count <= configuration.frameLimit else {
            throw LinkError(.refused, "a frame of \(frame.count) bytes is over the link's \(configuration.frameLimit)")
        }
        guard await session.stream.write(TCPMessage.frame(frame).encoded) else {
            throw LinkError(.connectionLost, "the connection to \(peer) closed")
        }
    }
}
