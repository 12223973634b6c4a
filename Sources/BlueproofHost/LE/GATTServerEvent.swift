import BlueproofWire

/// What a peer's client did to this host's GATT server.
public enum GATTServerEvent: Hashable, Sendable {
    /// A characteristic value or descriptor was written; the database holds the new value.
    case written(connection: LEConnection, handle: UInt16, value: [UInt8], withResponse: Bool)
    /// A client changed its Client Characteristic Configuration for `characteristic` (a value handle).
    case subscriptionChanged(connection: LEConnection, characteristic: UInt16, notify: Bool, indicate: Bool)
    /// A write was refused with `error` (an attribute value holds at most 512 octets, Vol 3,
    /// Part F §3.2.9; the characteristic does not allow that kind of write; …): a Write Request
    /// got an Error Response with it, a Write Command (`withResponse` false) cannot be answered
    /// (§3.4.5.3) and was ignored. `length` is the value's length in octets.
    case writeRefused(connection: LEConnection, handle: UInt16, length: Int, withResponse: Bool, error: ATTErrorCode)
}
