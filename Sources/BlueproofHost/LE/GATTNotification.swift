/// A Handle Value Notification or Indication from a peer's GATT server
/// (Vol 3, Part F §3.4.7). Indications are confirmed by the host once delivered.
public struct GATTNotification: Hashable, Sendable {
    public var handle: UInt16
    public var value: [UInt8]
    public var isIndication: Bool

    public init(handle: UInt16, value: [UInt8], isIndication: Bool) {
        self.handle = handle
        self.value = value
        self.isIndication = isIndication
    }
}

/// What a peer's client did to this host's GATT server.
public enum GATTServerEvent: Hashable, Sendable {
    /// A characteristic value or descriptor was written; the database holds the new value.
    case written(connection: LEConnection, handle: UInt16, value: [UInt8], withResponse: Bool)
    /// A client changed its Client Characteristic Configuration for `characteristic` (a value handle).
    case subscriptionChanged(connection: LEConnection, characteristic: UInt16, notify: Bool, indicate: Bool)
}
