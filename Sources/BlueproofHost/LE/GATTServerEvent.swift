/// What a peer's client did to this host's GATT server.
public enum GATTServerEvent: Hashable, Sendable {
    /// A characteristic value or descriptor was written; the database holds the new value.
    case written(connection: LEConnection, handle: UInt16, value: [UInt8], withResponse: Bool)
    /// A client changed its Client Characteristic Configuration for `characteristic` (a value handle).
    case subscriptionChanged(connection: LEConnection, characteristic: UInt16, notify: Bool, indicate: Bool)
}
