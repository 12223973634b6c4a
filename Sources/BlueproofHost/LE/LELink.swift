import BlueproofAsync
import BlueproofWire

/// The host's state for one open connection.
struct LELink {
    let connection: LEConnection
    var interval: LEConnectionInterval
    /// Waiters for room in this connection's outbound ACL queue.
    var roomWaiters: [OneShot<Bool>] = []

    init(_ connection: LEConnection) {
        self.connection = connection
        interval = connection.interval
    }
}

/// A connection attempt as central, waiting for LE Connection Complete.
struct PendingConnection {
    let peer: BDAddress
    let outcome = OneShot<Result<LEConnection, LEHostError>>()
}
