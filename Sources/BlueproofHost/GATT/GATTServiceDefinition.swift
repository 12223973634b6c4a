import BlueproofWire

/// A service to put in a ``GATTDatabase`` (Core Vol 3, Part G §3.1).
public struct GATTServiceDefinition: Hashable, Sendable {
    public var uuid: BluetoothUUID
    /// Primary services are found by discovery; secondary ones only through includes.
    public var isPrimary: Bool
    public var characteristics: [GATTCharacteristicDefinition]

    public init(uuid: BluetoothUUID, isPrimary: Bool = true, characteristics: [GATTCharacteristicDefinition]) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.characteristics = characteristics
    }
}
