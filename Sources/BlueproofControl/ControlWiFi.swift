import BlueproofTransmitter

// issue 14: BFT/SIZE with an Android peer
/// An implementation's Wi-Fi peer-to-peer link as the `wifiPeerToPeer` command (control
/// protocol 4) reaches it: the harness tells it the testers' addresses and learns its own, so
/// both ends of each pair can dial (docs/transmitter-links.md, "TCP").
public protocol ControlWiFi: Sendable {
    /// Adds `peers` (`HOST:PORT`, untrusted: refused with the address at fault) to dial;
    /// returns where the link listens, nil before it started.
    func peerToPeer(adding peers: [String]) async throws(TransmitterError) -> String?
}

/// Bounds on the command's untrusted input.
public enum ControlWiFiLimits {
    /// Peers one `wifiPeerToPeer` line may name.
    public static let maxPeers = 64
}
