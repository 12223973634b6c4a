/// What a link reports to the transmitter that owns it.
///
/// Peers are named by their `UserID`: every link announces the local user id (BLE in its
/// advertising data, TCP in its first frame, the simulated link by construction), so the
/// transmitter never sees link addresses.
public enum LinkEvent: Sendable, Equatable {
    /// A peer came into range (advertising seen, or a neighbour in the simulated topology).
    case peerNearby(UserID)
    /// A peer left range without ever being connected, or after its connection ended.
    case peerGone(UserID)
    /// A connection with the peer is up, whichever side opened it; frames can flow.
    case connected(UserID)
    /// The connection with the peer is down.
    case disconnected(UserID)
    /// One whole transmitter frame arrived from a connected peer (the link reassembled its
    /// chunks; see docs/transmitter-wire.md).
    case frame(from: UserID, bytes: [UInt8])
}

/// A link a transmitter sends its frames over: BLE (over this project's GATT), a Wi-Fi-like
/// TCP link, or the in-process simulated link. The same transmitter code runs on all three.
///
/// Contract: `events()` is called once, before `start`; `connect`/`disconnect` act on peers
/// the link has reported nearby; `send` returns once the link has taken the whole frame
/// (written to the socket, or every chunk acknowledged by ATT flow control) and throws
/// `LinkError` otherwise. Links never look inside frames.
public protocol TransmitterLink: Sendable {
    /// Which size limits apply to packets on this link.
    var kind: LinkKind { get }
    /// The events of this link, in order. Finishes after `stop()`.
    func events() -> AsyncStream<LinkEvent>
    /// Starts announcing `localUser` and looking for peers.
    func start(localUser: UserID) async throws(LinkError)
    /// Stops announcing and scanning and closes every connection.
    func stop() async
    /// Opens a connection to a nearby peer.
    func connect(to peer: UserID) async throws(LinkError)
    /// Closes the connection to a peer; `.disconnected` follows.
    func disconnect(from peer: UserID) async
    /// Sends one whole frame to a connected peer.
    func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError)
    /// Which size limits apply to packets exchanged with `peer` (a link with several carriers
    /// answers per peer, ``DualLink``); `kind` by default.
    func kind(to peer: UserID) -> LinkKind
}

extension TransmitterLink {
    public func kind(to peer: UserID) -> LinkKind { kind }
}

/// Why a link operation failed.
public struct LinkError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: String, Hashable, Sendable {
        /// The link's radio or socket is not available (the document's "Bluetooth unavailable").
        case unavailable
        /// The peer is not nearby or not connected.
        case peerUnreachable
        /// The connection dropped while the frame was in flight.
        case connectionLost
        /// The link did not take the frame in time.
        case timeout
        /// The link refused the frame (e.g. larger than the link can carry).
        case refused
    }

    public var reason: Reason
    public var detail: String

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue): \(detail)" }
}
