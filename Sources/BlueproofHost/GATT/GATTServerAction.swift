import BlueproofWire

extension GATTServer {
    /// What the caller must do after the server handled a PDU.
    public enum Action: Hashable, Sendable {
        /// Send this PDU back to the client on the same connection.
        case respond(ATTPDU)
        /// A client wrote an attribute (a characteristic value or a descriptor other than a
        /// Client Characteristic Configuration); the database already holds the new value.
        case written(handle: UInt16, uuid: BluetoothUUID, value: [UInt8], withResponse: Bool)
        /// A client changed a Client Characteristic Configuration descriptor: `characteristic`
        /// is the value handle, `notify` and `indicate` what the connection now asks for
        /// (bits the characteristic's properties do not allow count as clear).
        case subscriptionChanged(connection: UInt16, characteristic: UInt16, notify: Bool, indicate: Bool)
        /// A client's write was refused with `error`: a Write Request was answered with it (the
        /// `respond` before this action), a Write Command cannot be answered (Vol 3, Part F
        /// §3.4.5.3) and was ignored. `length` is the value's length in octets.
        case writeRefused(handle: UInt16, length: Int, withResponse: Bool, error: ATTErrorCode)
    }

    /// A PDU for one connection, built by ``GATTServer/notifications(for:value:mtu:)`` and
    /// ``GATTServer/indications(for:value:mtu:)``.
    public struct Outbound: Hashable, Sendable {
        public var connection: UInt16
        public var pdu: ATTPDU

        public init(connection: UInt16, pdu: ATTPDU) {
            self.connection = connection
            self.pdu = pdu
        }
    }
}
