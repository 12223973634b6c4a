import BlueproofAsync
import BlueproofWire

/// The host's state for one open connection: its ATT bearer, its LE signaling channel and
/// credit-based channels, and whoever waits on them.
struct LELink {
    let connection: LEConnection
    var interval: LEConnectionInterval
    /// This host asked the controller to disconnect: nothing more is sent on the handle
    /// (the controller may report the disconnection before the host reads it).
    var closing = false
    /// Waiters for room in this connection's outbound ACL queue.
    var roomWaiters: [OneShot<Bool>] = []

    // ATT (Vol 3, Part F)
    var att = ATTBearer()
    var attWaiters: [ATTBearer.RequestID: OneShot<Result<ATTPDU, LEHostError>>] = [:]
    var attTimer: (deadline: Duration, task: Task<Void, Never>)?
    var indicationWaiters: [OneShot<Bool>] = []
    var notificationSubscribers: [UInt64: AsyncStream<GATTNotification>.Continuation] = [:]

    // L2CAP LE signaling and credit-based channels (Vol 3, Part A §4, §10.1)
    var signaling: L2CAPSignaling
    var channelOpenings: [L2CAPChannelID: OneShot<Result<L2CAPChannel, LEHostError>>] = [:]
    var channelInbound: [L2CAPChannelID: AsyncStream<[UInt8]>.Continuation] = [:]
    /// issue 17: SDUs that arrived on an open channel before `incomingSDUs` was asked for
    /// (a peer may speak first), replayed to the first reader; at most `channelBacklogLimit`.
    var channelBacklog: [L2CAPChannelID: [[UInt8]]] = [:]
    /// Waiters for a channel's send queue to drain (credits came back or it closed).
    var channelWaiters: [L2CAPChannelID: [OneShot<Bool>]] = [:]
    /// Waiters for the peer to use every credit a channel granted (true) or for it to close (false).
    var creditWaiters: [L2CAPChannelID: [OneShot<Bool>]] = [:]

    init(_ connection: LEConnection) {
        self.connection = connection
        interval = connection.interval
        signaling = L2CAPSignaling(role: connection.role == .central ? .central : .peripheral)
    }
}
