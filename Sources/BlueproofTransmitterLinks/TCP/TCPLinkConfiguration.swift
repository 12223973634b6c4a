/// Where a TCP link node listens and whom it dials.
public struct TCPLinkConfiguration: Hashable, Sendable {
    /// The listening address; port 0 lets the system choose (see ``TCPLink/listeningAddress``).
    public var listen: TCPAddress
    /// Peers to dial.
    public var peers: [TCPAddress]
    /// How long to wait before dialing an address that did not answer again.
    public var probeInterval: Duration
    /// The largest frame sent or accepted.
    public var frameLimit: Int

    public init(listen: TCPAddress = TCPAddress(port: 0), peers: [TCPAddress] = [],
                probeInterval: Duration = .milliseconds(200), frameLimit: Int = 16 * 1024 * 1024) {
        self.listen = listen
        self.peers = peers
        self.probeInterval = probeInterval
        self.frameLimit = frameLimit
    }
}
