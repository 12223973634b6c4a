import Foundation

/// A packet identifier, returned by `send` and carried by every delivery event.
/// Source: bridgefy-ios-sdk-readme.md, "4. Send data" (a unique identifier for the packet).
public typealias PacketID = UUID

/// Everything a transmitter reports, in the order it happens. The document's delegate methods
/// become cases of one enum delivered on an `AsyncStream`.
///
/// Source: bridgefy-ios-sdk-readme.md, "2. Start transmitter", "3. Nearby peer detection",
/// "4. Send data", "5. Receive Data", "Secure connections".
public enum TransmitterEvent: Sendable, Equatable {
    // Lifecycle ("2. Start transmitter").
    /// The transmitter started in `mode`.
    case started(ConnectionMode)
    /// `start` was called on a running transmitter (not an error: the document's event).
    case alreadyStarted
    /// Start failed (licence, session, link); the transmitter stays stopped.
    case startFailed(TransmitterError)
    /// The link's radio is not available.
    case bluetoothUnavailable
    /// No offline licence certificate: the licence can be validated only online
    /// (didOccurEvent, "not necessarily an error"; with no network the start then fails).
    case licenceNeedsNetwork
    /// The transmitter stopped.
    case stopped

    // Peers ("3. Nearby peer detection").
    /// On-demand mode: a peer is in range; connect with `connect(to:)`.
    case nearbyUser(UserID)
    /// A connection with the user is up.
    case connected(UserID)
    /// The connection with the user is down.
    case disconnected(UserID)
    /// A secure connection with the user is established ("Secure connections").
    case secureConnection(UserID)
    /// A frame claimed to come from `user` but its key differs from the one on record: it was
    /// rejected and the stored key kept ("Export and import keys"; never replaced silently).
    case keyConflict(UserID)

    // Delivery ("4. Send data").
    /// The packet reached the receiver's link directly (didSendDirectPacket).
    case sentDirect(PacketID)
    /// The packet was handed to the mesh (mesh, broadcast, or full with the receiver away).
    case addedToMesh(PacketID)
    /// Full transmission: the direct attempt failed, the packet went into the mesh instead.
    case fellBackToMesh(PacketID)
    /// Sending failed (didFailForPacket).
    case failed(PacketID, TransmitterError)
    /// A held mesh packet was dropped (expired, or out of hops) before reaching its receiver.
    case discarded(PacketID, reason: String)
    /// A received packet exceeded the size limit of its link and was dropped unread.
    case rejectedBySize(PacketID, size: Int, limit: Int)

    // Reception ("5. Receive Data").
    case received(ReceivedPacket)

    // Logging ("Log levels").
    /// A line this transmitter wrote to its log, at `level`: only lines the process-wide
    /// level lets through (each level includes the ones below it).
    case log(TransmitterLogLevel, String)
}

/// A packet delivered to this user (didReceiveDictionary).
public struct ReceivedPacket: Sendable, Equatable {
    public var packetID: PacketID
    public var sender: UserID
    public var dictionary: [String: TransmitterValue]?
    public var data: Data?
    /// Received via broadcast.
    public var broadcast: Bool
    /// Received via the mesh (relayed by at least one other node, or sent with mesh options).
    public var mesh: Bool
    /// The packet was encrypted end to end.
    public var encrypted: Bool

    public init(packetID: PacketID, sender: UserID, dictionary: [String: TransmitterValue]?, data: Data?, broadcast: Bool, mesh: Bool, encrypted: Bool) {
        self.packetID = packetID
        self.sender = sender
        self.dictionary = dictionary
        self.data = data
        self.broadcast = broadcast
        self.mesh = mesh
        self.encrypted = encrypted
    }
}
