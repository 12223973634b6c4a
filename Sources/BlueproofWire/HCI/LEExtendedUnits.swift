// Time parameters of the extended advertising and scanning commands and events.

/// Primary advertising interval, 0.625 ms units in 3 octets (Core Vol 4, Part E §7.8.53).
public struct LEExtendedAdvertisingInterval: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public static let unitMicroseconds: Int64 = 625
    /// The unit count; only the low 24 bits go on the wire.
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FFFF }

    public var duration: Duration { .microseconds(Int64(rawValue) * Self.unitMicroseconds) }

    /// `0x0000a0 (100 ms)`.
    public var description: String {
        let micros = Int64(rawValue) * Self.unitMicroseconds
        let millis = micros % 1000 == 0 ? "\(micros / 1000)" : "\(Double(micros) / 1000)"
        // Six hex digits: the low 24 bits of the 32-bit form.
        return "0x\(hex(rawValue).dropFirst(2)) (\(millis) ms)"
    }
}

/// How long an advertising set advertises, 10 ms units; 0 means until disabled
/// (Core Vol 4, Part E §7.8.56).
public struct LEAdvertisingDuration: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 10_000
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Advertise until disabled.
    public static let unlimited = LEAdvertisingDuration(rawValue: 0)
}

/// How long a scan lasts, 10 ms units; 0 means until disabled (Core Vol 4, Part E §7.8.65).
public struct LEScanDuration: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 10_000
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Scan until disabled.
    public static let unlimited = LEScanDuration(rawValue: 0)
}

/// Time from the start of one scan duration to the next, 1.28 s units; 0 means scan once
/// (Core Vol 4, Part E §7.8.65).
public struct LEScanPeriod: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 1_280_000
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// No periodic scanning.
    public static let scanOnce = LEScanPeriod(rawValue: 0)
}

/// Periodic advertising interval, 1.25 ms units; 0 when there is no periodic advertising
/// (Core Vol 4, Part E §7.7.65.13).
public struct LEPeriodicAdvertisingInterval: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 1250
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// No periodic advertising.
    public static let noPeriodicAdvertising = LEPeriodicAdvertisingInterval(rawValue: 0)
}
