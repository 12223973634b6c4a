import BlueproofWire

extension GATTDatabase {
    /// Where a service sits in the database (Core Vol 3, Part G §3.1).
    public struct Service: Hashable, Sendable {
        public var uuid: BluetoothUUID
        public var isPrimary: Bool
        /// The handle of the service declaration.
        public var startHandle: UInt16
        /// The last handle of the service's group.
        public var endHandle: UInt16
    }
}
