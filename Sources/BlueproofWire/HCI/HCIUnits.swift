/// A time parameter that HCI counts in fixed units; it keeps the raw count and offers a `Duration`.
public protocol HCIUnitDuration: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == UInt16 {
    /// Length of one unit in microseconds.
    static var unitMicroseconds: Int64 { get }
    init(rawValue: UInt16)
}

extension HCIUnitDuration {
    public var duration: Duration { .microseconds(Int64(rawValue) * Self.unitMicroseconds) }

    /// `0x0800 (1280 ms)`.
    public var description: String {
        let micros = Int64(rawValue) * Self.unitMicroseconds
        let millis = micros % 1000 == 0 ? "\(micros / 1000)" : "\(Double(micros) / 1000)"
        return "0x\(hex(rawValue)) (\(millis) ms)"
    }
}

/// Advertising interval, 0.625 ms units (Core Vol 4, Part E §7.8.5).
public struct LEAdvertisingInterval: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 625
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
}

/// Scan interval or window, 0.625 ms units (§7.8.10, §7.8.12).
public struct LEScanInterval: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 625
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
}

/// Connection interval, 1.25 ms units (§7.8.12, §7.7.65.1).
public struct LEConnectionInterval: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 1250
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
}

/// Supervision timeout, 10 ms units (§7.8.12).
public struct LESupervisionTimeout: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 10_000
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
}

/// Connection event length, 0.625 ms units (§7.8.12).
public struct LEConnectionEventLength: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 625
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
}

/// Time to transmit one link-layer packet, in microseconds (§7.8.33, §7.7.65.7).
public struct LEPacketTime: HCIUnitDuration {
    public static let unitMicroseconds: Int64 = 1
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
}
