import BlueproofWire

extension GATTDatabase {
    /// Where a characteristic sits in the database (Core Vol 3, Part G §3.3).
    public struct Characteristic: Hashable, Sendable {
        public var uuid: BluetoothUUID
        public var properties: GATTCharacteristicProperties
        public var declarationHandle: UInt16
        public var valueHandle: UInt16
        /// The Client Characteristic Configuration descriptor, when it notifies or indicates.
        public var configurationHandle: UInt16?
        /// The last handle of the characteristic's definition (its last descriptor).
        public var endHandle: UInt16
    }
}
