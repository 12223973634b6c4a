/// One node's link on a `SimulatedNetwork`. Its events come from the network's per-node queue,
/// one at a time: the next event is taken only when the transmitter asks for it, which is how the
/// network knows the previous one has been handled.
public struct SimulatedLink: PlatformAnnouncingLink {
    let network: SimulatedNetwork
    let token: Int
    public let kind: LinkKind

    public func events() -> AsyncStream<LinkEvent> {
        let network = network
        let token = token
        network.open(token: token)
        return AsyncStream(unfolding: { await network.nextEvent(token: token) })
    }

    public func start(localUser: UserID) async throws(LinkError) {
        try network.start(token: token, user: localUser)
    }

    public func stop() async {
        network.stop(token: token)
    }

    public func announcedPlatform(of peer: UserID) async -> DevicePlatform? {
        network.platform(of: peer)
    }

    public func connect(to peer: UserID) async throws(LinkError) {
        try network.connect(token: token, to: peer)
    }

    public func disconnect(from peer: UserID) async {
        network.disconnect(token: token, from: peer)
    }

    public func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        guard network.airRate != nil else { return try network.send(token: token, frame: frame, to: peer) }
        guard network.isConnected(token: token, to: peer) else { throw LinkError(.peerUnreachable, "not connected to \(peer)") }
        let failure = await network.crossAir(token: token, bytes: frame.count) { [network, token] () -> LinkError? in
            guard network.isConnected(token: token, to: peer) else {
                return LinkError(.connectionLost, "the connection to \(peer) dropped while the frame was in the air")
            }
            do throws(LinkError) {
                try network.send(token: token, frame: frame, to: peer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}
