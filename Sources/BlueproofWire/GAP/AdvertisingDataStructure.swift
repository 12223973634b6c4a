/// One AD structure (Core Vol 3, Part C §11; Core Supplement, Part A §1): a Length octet
/// counting the AD Type and AD Data, the AD Type octet, then the AD Data.
public struct AdvertisingDataStructure: Hashable, Sendable, CustomStringConvertible {
    public var type: AdvertisingDataType
    /// The AD Data octets; at most ``maximumDataLength`` can be framed.
    public var data: [UInt8]

    /// The Length octet counts the type octet too, so data holds at most 254 octets.
    public static let maximumDataLength = 254

    public init(type: AdvertisingDataType, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// Octets the structure takes on the wire: Length, AD Type, AD Data.
    public var encodedCount: Int { 2 + data.count }

    public var description: String { "\(type): \(hex(data))" }
}
