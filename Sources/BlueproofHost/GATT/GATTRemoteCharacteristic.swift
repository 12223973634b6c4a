import BlueproofWire

/// A characteristic found on a peer's server (Core Vol 3, Part G §4.6).
public struct GATTRemoteCharacteristic: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var properties: GATTCharacteristicProperties
    public var declarationHandle: UInt16
    public var valueHandle: UInt16
    /// The last handle of its definition: before the next declaration, or the service's end.
    public var endHandle: UInt16

    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties, declarationHandle: UInt16,
                valueHandle: UInt16, endHandle: UInt16) {
        self.uuid = uuid
        self.properties = properties
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.endHandle = endHandle
    }
}
