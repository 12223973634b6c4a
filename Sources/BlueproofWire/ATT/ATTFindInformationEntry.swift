/// One handle-UUID pair of a Find Information Response (Core Vol 3, Part F §3.4.3.2).
public struct ATTFindInformationEntry: Hashable, Sendable {
    public var handle: UInt16
    public var type: BluetoothUUID

    public init(handle: UInt16, type: BluetoothUUID) {
        self.handle = handle
        self.type = type
    }
}
