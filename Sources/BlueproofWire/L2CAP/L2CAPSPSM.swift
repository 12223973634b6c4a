/// A Simplified Protocol/Service Multiplexer (Core Vol 3, Part A §4.22): names the protocol
/// an LE credit-based channel carries. 0x0001–0x007F are fixed by the SIG, 0x0080–0x00FF are
/// dynamic; other values are outside the LE range. An open set.
public struct L2CAPSPSM: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// Internet Protocol Support Profile.
    public static let ipsp = L2CAPSPSM(0x0023)
    /// Object Transfer Service.
    public static let ots = L2CAPSPSM(0x0025)
    /// Enhanced ATT.
    public static let eatt = L2CAPSPSM(0x0027)

    /// The values valid on LE (§4.22): 0x0001–0x00FF.
    public static let leRange: ClosedRange<UInt16> = 0x0001...0x00FF
    /// Dynamically assigned LE SPSMs.
    public static let leDynamicRange: ClosedRange<UInt16> = 0x0080...0x00FF

    public var description: String { "0x\(hex(rawValue))" }

    public static func < (lhs: L2CAPSPSM, rhs: L2CAPSPSM) -> Bool { lhs.rawValue < rhs.rawValue }
}
