import BlueproofTransmitter
import BlueproofTransmitterLinks

/// The Wi-Fi peer-to-peer of one case's iOS-like nodes (bridgefy-ios-sdk-readme.md,
/// "Connections with Android devices": Wi-Fi peer-to-peer between two iOS devices): each node's
/// TCP link on loopback, told the address of every other as each starts, so the nodes find
/// each other whatever order the case starts them in. An implementation under test joins from
/// outside (`outside`, the control protocol's `wifiPeerToPeer`): told every member's address,
/// its own learnt once it has started.
actor WiFiGroup {
    /// Tells the outside node `addresses` to dial; answers where it listens (nil before it started).
    typealias Outside = @Sendable ([TCPAddress]) async -> TCPAddress?

    private var started: [TCPLink] = []
    private var addresses: [TCPAddress] = []
    private let outside: Outside?
    private var outsideAddress: TCPAddress?

    init(outside: Outside? = nil) { self.outside = outside }

    /// A link for one node of the group.
    nonisolated func link() -> any TransmitterLink { WiFiGroupLink(group: self, inner: TCPLink()) }

    /// `link` has started listening at `address`: it and the others learn of each other.
    fileprivate func joined(_ link: TCPLink, at address: TCPAddress) async {
        for other in addresses { await link.addPeer(other) }
        for other in started { await other.addPeer(address) }
        started.append(link)
        addresses.append(address)
        if let outsideAddress {
            await link.addPeer(outsideAddress)
            _ = await outside?([address])
        } else {
            await askOutside()
        }
    }

    /// Until the outside node has told where it listens: tells it every member's address and
    /// asks again (it answers only once started), passing its answer on to every member.
    func askOutside() async {
        guard let outside, outsideAddress == nil, let its = await outside(addresses) else { return }
        outsideAddress = its
        for link in started { await link.addPeer(its) }
    }
}

/// A TCP link that joins its `WiFiGroup` once it listens; otherwise the TCP link itself.
private struct WiFiGroupLink: TransmitterLink {
    let group: WiFiGroup
    let inner: TCPLink

    var kind: LinkKind { inner.kind }
    func events() -> AsyncStream<LinkEvent> { inner.events() }

    func start(localUser: UserID) async throws(LinkError) {
        try await inner.start(localUser: localUser)
        guard let address = await inner.listeningAddress else { throw LinkError(.unavailable, "the TCP link started without a listening address") }
        await group.joined(inner, at: address)
    }

    func stop() async { await inner.stop() }
    func connect(to peer: UserID) async throws(LinkError) { try await inner.connect(to: peer) }
    func disconnect(from peer: UserID) async { await inner.disconnect(from: peer) }
    func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) { try await inner.send(frame, to: peer) }
}
