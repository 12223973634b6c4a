/// The AD Type of an advertising data structure (Core Supplement, Part A §1; values from
/// Assigned Numbers §2.3). An open set: types this module does not know are kept as they are.
public struct AdvertisingDataType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Flags (Core Supplement, Part A §1.3).
    public static let flags = AdvertisingDataType(rawValue: 0x01)
    /// Incomplete List of 16-bit Service or Service Class UUIDs (Core Supplement, Part A §1.1).
    public static let incompleteServiceUUIDs16 = AdvertisingDataType(rawValue: 0x02)
    /// Complete List of 16-bit Service or Service Class UUIDs.
    public static let completeServiceUUIDs16 = AdvertisingDataType(rawValue: 0x03)
    /// Incomplete List of 32-bit Service or Service Class UUIDs.
    public static let incompleteServiceUUIDs32 = AdvertisingDataType(rawValue: 0x04)
    /// Complete List of 32-bit Service or Service Class UUIDs.
    public static let completeServiceUUIDs32 = AdvertisingDataType(rawValue: 0x05)
    /// Incomplete List of 128-bit Service or Service Class UUIDs.
    public static let incompleteServiceUUIDs128 = AdvertisingDataType(rawValue: 0x06)
    /// Complete List of 128-bit Service or Service Class UUIDs.
    public static let completeServiceUUIDs128 = AdvertisingDataType(rawValue: 0x07)
    /// Shortened Local Name (Core Supplement, Part A §1.2).
    public static let shortenedLocalName = AdvertisingDataType(rawValue: 0x08)
    /// Complete Local Name (Core Supplement, Part A §1.2).
    public static let completeLocalName = AdvertisingDataType(rawValue: 0x09)
    /// Tx Power Level (Core Supplement, Part A §1.5).
    public static let txPowerLevel = AdvertisingDataType(rawValue: 0x0A)
    /// Service Data - 16-bit UUID (Core Supplement, Part A §1.11).
    public static let serviceData16 = AdvertisingDataType(rawValue: 0x16)
    /// Appearance (Core Supplement, Part A §1.12).
    public static let appearance = AdvertisingDataType(rawValue: 0x19)
    /// Service Data - 32-bit UUID.
    public static let serviceData32 = AdvertisingDataType(rawValue: 0x20)
    /// Service Data - 128-bit UUID.
    public static let serviceData128 = AdvertisingDataType(rawValue: 0x21)
    /// Manufacturer Specific Data (Core Supplement, Part A §1.4).
    public static let manufacturerSpecificData = AdvertisingDataType(rawValue: 0xFF)

    public var name: String? {
        switch self {
        case .flags: "Flags"
        case .incompleteServiceUUIDs16: "Incomplete List of 16-bit Service UUIDs"
        case .completeServiceUUIDs16: "Complete List of 16-bit Service UUIDs"
        case .incompleteServiceUUIDs32: "Incomplete List of 32-bit Service UUIDs"
        case .completeServiceUUIDs32: "Complete List of 32-bit Service UUIDs"
        case .incompleteServiceUUIDs128: "Incomplete List of 128-bit Service UUIDs"
        case .completeServiceUUIDs128: "Complete List of 128-bit Service UUIDs"
        case .shortenedLocalName: "Shortened Local Name"
        case .completeLocalName: "Complete Local Name"
        case .txPowerLevel: "Tx Power Level"
        case .serviceData16: "Service Data - 16-bit UUID"
        case .appearance: "Appearance"
        case .serviceData32: "Service Data - 32-bit UUID"
        case .serviceData128: "Service Data - 128-bit UUID"
        case .manufacturerSpecificData: "Manufacturer Specific Data"
        default: nil
        }
    }

    /// For the six service UUID list types: the UUID width in octets and whether the list is
    /// complete. Nil for every other type.
    public var serviceUUIDList: (width: Int, complete: Bool)? {
        switch rawValue {
        case 0x02...0x07:
            let widths = [2, 2, 4, 4, 16, 16]
            let index = Int(rawValue) - 2
            return (widths[index], index.isMultiple(of: 2) == false)
        default: return nil
        }
    }

    /// For the three service data types: the width of the UUID that starts the data.
    public var serviceDataUUIDWidth: Int? {
        switch self {
        case .serviceData16: 2
        case .serviceData32: 4
        case .serviceData128: 16
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
