import BlueproofHost
import BlueproofTransmitter

/// One LE connection with a peer, from either side, and what frames need on it.
struct BLESession: Sendable {
    enum Role: Sendable {
        /// This node opened the connection: it writes to `handle` on the peer's server.
        case central(GATTClient, handle: UInt16)
        /// The peer opened it: this node notifies `handle` of its own server.
        case peripheral(handle: UInt16)
    }

    let connection: LEConnection
    var role: Role
    /// Set once GATT works both ways (MTU exchanged, subscribed, hello delivered).
    var ready = false
    var chunker: BLEFrameChunker
    var reassembler: BLEFrameReassembler
    /// Frames that arrived before `ready` (the peer's first notification can beat the answer
    /// to this side's hello write): reported right after `.connected`, so a transmitter never
    /// sees a peer's frame before the peer is connected. At most ``heldLimit``.
    var held: [[UInt8]] = []
    static let heldLimit = 8
}
