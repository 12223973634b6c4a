/// The AuthReq field (Core Vol 3, Part H §3.5.1, Figure 3.3): bonding flags in bits 0–1,
/// then MITM, SC, Keypress and CT2. Reserved bits are kept as received.
public struct SMPAuthenticationRequirements: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags 0b01: bonding.
    public static let bonding = SMPAuthenticationRequirements(rawValue: 0x01)
    /// Man-in-the-middle protection requested.
    public static let mitm = SMPAuthenticationRequirements(rawValue: 0x04)
    /// LE Secure Connections pairing supported.
    public static let secureConnections = SMPAuthenticationRequirements(rawValue: 0x08)
    /// Keypress notifications during passkey entry.
    public static let keypress = SMPAuthenticationRequirements(rawValue: 0x10)
    /// Support for the h7 function (cross-transport key derivation).
    public static let ct2 = SMPAuthenticationRequirements(rawValue: 0x20)

    /// Bonding_Flags, bits 0–1 (0b00 no bonding, 0b01 bonding).
    public var bondingFlags: UInt8 { rawValue & 0b11 }

    public var description: String { "0x\(hex(rawValue))" }
}
