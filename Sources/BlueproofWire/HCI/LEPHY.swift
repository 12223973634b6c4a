/// One LE physical layer, as a one-octet value (Core Vol 4, Part E §7.8.53, §7.7.65.13).
/// An open set.
public struct LEPHY: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// No packets on this PHY: the Secondary_PHY of a report of a legacy or primary-only PDU.
    public static let noPackets = LEPHY(rawValue: 0x00)
    public static let le1M = LEPHY(rawValue: 0x01)
    /// Only on the secondary advertising channels and on connections.
    public static let le2M = LEPHY(rawValue: 0x02)
    public static let leCoded = LEPHY(rawValue: 0x03)

    public var name: String? {
        switch self {
        case .noPackets: "none"
        case .le1M: "LE 1M"
        case .le2M: "LE 2M"
        case .leCoded: "LE Coded"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// A set of LE PHYs as a bit mask: Scanning_PHYs (§7.8.64), Initiating_PHYs (§7.8.66).
/// Commands that take one carry one block of parameters per bit set, in bit order.
public struct LEPHYs: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let le1M = LEPHYs(rawValue: 1 << 0)
    /// Not allowed for scanning; allowed for initiating.
    public static let le2M = LEPHYs(rawValue: 1 << 1)
    public static let leCoded = LEPHYs(rawValue: 1 << 2)

    /// Each bit set, as a one-bit set, lowest first: the order of the per-PHY parameters.
    public var bits: [LEPHYs] {
        (0..<8).compactMap { bit in rawValue & (1 << bit) != 0 ? LEPHYs(rawValue: 1 << bit) : nil }
    }

    /// `1M`, `2M`, `Coded`, or `bitN` for a reserved bit; for one-bit sets.
    var shortName: String {
        switch self {
        case .le1M: "1M"
        case .le2M: "2M"
        case .leCoded: "Coded"
        default: "bit\(rawValue.trailingZeroBitCount)"
        }
    }

    public var description: String {
        let names = bits.map(\.shortName)
        return "0x\(hex(rawValue)) (\(names.isEmpty ? "none" : names.joined(separator: ",")))"
    }
}
