/// The value of a Client Characteristic Configuration descriptor (Core Vol 3, Part G
/// §3.3.3.3, Table 3.11): a 16-bit field, bit 0 notifications, bit 1 indications.
public struct GATTClientCharacteristicConfiguration: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let notification = GATTClientCharacteristicConfiguration(rawValue: 0x0001)
    public static let indication = GATTClientCharacteristicConfiguration(rawValue: 0x0002)

    /// Decodes exactly two octets; other bits than 0 and 1 are kept (they are reserved).
    public init(bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes, context: "Client Characteristic Configuration")
        rawValue = try reader.u16("value")
        try reader.requireEnd()
    }

    public var bytes: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}
