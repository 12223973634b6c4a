/// An L2CAP channel identifier (Core Vol 3, Part A §2.1, Table 2.3 for LE-U). An open set.
public struct L2CAPChannelID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// The null identifier; never used as a destination.
    public static let null = L2CAPChannelID(0x0000)
    /// Attribute protocol (Vol 3, Part F).
    public static let att = L2CAPChannelID(0x0004)
    /// LE L2CAP signaling channel (Vol 3, Part A §4).
    public static let leSignaling = L2CAPChannelID(0x0005)
    /// Security Manager protocol (Vol 3, Part H).
    public static let smp = L2CAPChannelID(0x0006)

    /// Dynamically allocated CIDs on LE-U: 0x0040–0x007F (Vol 3, Part A §2.1, Table 2.3).
    public static let leDynamicRange: ClosedRange<UInt16> = 0x0040...0x007F

    /// True for a CID in the LE dynamically allocated range.
    public var isLEDynamic: Bool { Self.leDynamicRange.contains(rawValue) }

    public var name: String? {
        switch self {
        case .null: "null"
        case .att: "ATT"
        case .leSignaling: "LE signaling"
        case .smp: "SMP"
        default: isLEDynamic ? "dynamic" : nil
        }
    }

    public var description: String {
        guard let name else { return "0x\(hex(rawValue))" }
        return "\(name) (0x\(hex(rawValue)))"
    }

    public static func < (lhs: L2CAPChannelID, rhs: L2CAPChannelID) -> Bool { lhs.rawValue < rhs.rawValue }
}
