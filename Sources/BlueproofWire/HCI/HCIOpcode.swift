/// An HCI command opcode: OGF in the upper 6 bits, OCF in the lower 10 (Core Vol 4, Part E §5.4.1).
/// An open set; the commands the project knows are static members next to their codecs.
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(ogf: UInt8, ocf: UInt16) { rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF) }

    public var ogf: UInt8 { UInt8(rawValue >> 10) }
    public var ocf: UInt16 { rawValue & 0x03FF }

    public static func < (lhs: HCIOpcode, rhs: HCIOpcode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// btmon's notation: `0x08|0x000c`.
    public var description: String { "0x\(hex(ogf))|0x\(hex(ocf))" }
}
