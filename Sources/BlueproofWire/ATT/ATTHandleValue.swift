/// One attribute handle and value pair of a Read By Type Response (Core Vol 3, Part F
/// §3.4.4.2).
public struct ATTHandleValue: Hashable, Sendable {
    public var handle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}
