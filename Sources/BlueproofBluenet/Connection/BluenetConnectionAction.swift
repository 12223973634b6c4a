/// What the connection core asks of the host, and how requests end.
public enum BluenetConnectionAction: Hashable, Sendable {
    /// Start connecting to the device.
    case connect(handle: String)
    /// Give up a connection attempt that has not completed.
    case cancelConnect(handle: String)
    /// Disconnect from the device.
    case disconnect(handle: String)
    /// Write the switch state (on or off) to the connected Crownstone's control characteristic.
    case writeSwitchState(handle: String, on: Bool)
    /// Request `request` (as returned by the call) ended.
    case complete(request: Int, BluenetOutcome)
}

/// How a promise-returning call ended: fulfilled, or rejected with the reason.
public enum BluenetOutcome: Hashable, Sendable {
    case fulfilled
    case rejected(BluenetError)
}
