/// One entry of a Read By Group Type Response (Core Vol 3, Part F §3.4.4.10): a grouping
/// attribute's handle, the last handle of its group, and its value.
public struct ATTGroupData: Hashable, Sendable {
    public var attributeHandle: UInt16
    public var endGroupHandle: UInt16
    public var value: [UInt8]

    public init(attributeHandle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.endGroupHandle = endGroupHandle
        self.value = value
    }
}
