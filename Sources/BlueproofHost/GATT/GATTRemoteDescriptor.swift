import BlueproofWire

/// A characteristic descriptor found on a peer's server (Core Vol 3, Part G §4.7).
public struct GATTRemoteDescriptor: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var handle: UInt16

    public init(uuid: BluetoothUUID, handle: UInt16) {
        self.uuid = uuid
        self.handle = handle
    }
}
