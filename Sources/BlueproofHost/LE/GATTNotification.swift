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
