/// The Flags AD type's first octet (Core Supplement, Part A §1.3; Core Vol 3, Part C §11).
/// A bit mask; bits 5–7 are reserved and kept as received.
public struct LEAdvertisingFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// LE Limited Discoverable Mode.
    public static let leLimitedDiscoverableMode = LEAdvertisingFlags(rawValue: 0x01)
    /// LE General Discoverable Mode.
    public static let leGeneralDiscoverableMode = LEAdvertisingFlags(rawValue: 0x02)
    /// BR/EDR Not Supported.
    public static let brEdrNotSupported = LEAdvertisingFlags(rawValue: 0x04)
    /// Simultaneous LE and BR/EDR to Same Device Capable (Controller); deprecated.
    public static let simultaneousLEAndBrEdrController = LEAdvertisingFlags(rawValue: 0x08)
    /// Previously used (Simultaneous LE and BR/EDR, Host); reserved.
    public static let simultaneousLEAndBrEdrHost = LEAdvertisingFlags(rawValue: 0x10)

    /// General discoverable, LE only: `0x06`, what LE-only peripherals advertise.
    public static let generalDiscoverableLEOnly: LEAdvertisingFlags = [.leGeneralDiscoverableMode, .brEdrNotSupported]

    public var description: String { "0x\(hex(rawValue))" }
}
