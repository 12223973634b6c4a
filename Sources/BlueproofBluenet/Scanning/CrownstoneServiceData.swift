import BlueproofWire

/// The state a Crownstone puts in its scan response's service data (bluenet-lib-ios README,
/// "Advertisement": crownstoneId, crownstoneStateId, switchState, eventBitmask, reserved,
/// powerUsage, accumulatedEnergy). The README names the fields but not their octets; the
/// layout is the 16-octet "scan response service data packet" of the Crownstone firmware's
/// protocol document of the same period (crownstone/bluenet PROTOCOL.md, v0.4):
///
/// | octets | field | type |
/// | --- | --- | --- |
/// | 0–1 | Crownstone ID | uint16 |
/// | 2–3 | Crownstone state ID | uint16 |
/// | 4 | switch state (0 off … 100 on) | uint8 |
/// | 5 | event bitmask | uint8 |
/// | 6–7 | reserved | 2 octets |
/// | 8–11 | power usage, mW | int32 |
/// | 12–15 | accumulated energy | int32 |
///
/// Little-endian, as everything else the nRF51 firmware sends. The service data UUID is one of
/// ``crownstoneServiceUUIDs`` (the iOS library's advertisement service UUIDs).
public struct CrownstoneServiceData: Hashable, Sendable {
    public var crownstoneId: UInt16
    public var crownstoneStateId: UInt16
    public var switchState: UInt8
    public var eventBitmask: UInt8
    public var reserved: UInt16
    /// Power usage at this moment, mW.
    public var powerUsage: Int32
    public var accumulatedEnergy: Int32

    /// The packet's length, octets.
    public static let length = 16
    /// Service data UUIDs that mark a Crownstone: plug C001, built-in C002, Guidestone C003
    /// (bluenet-ios-lib protocol/Services.swift).
    public static let crownstoneServiceUUIDs: [BluetoothUUID] = [0xC001, 0xC002, 0xC003].map { BluetoothUUID(uuid16: $0) }
    /// The UUID the simulated Crownstone advertises (a plug).
    public static let plugServiceUUID = BluetoothUUID(uuid16: 0xC001)

    public init(crownstoneId: UInt16, crownstoneStateId: UInt16, switchState: UInt8, eventBitmask: UInt8,
                reserved: UInt16 = 0, powerUsage: Int32, accumulatedEnergy: Int32) {
        self.crownstoneId = crownstoneId
        self.crownstoneStateId = crownstoneStateId
        self.switchState = switchState
        self.eventBitmask = eventBitmask
        self.reserved = reserved
        self.powerUsage = powerUsage
        self.accumulatedEnergy = accumulatedEnergy
    }

    /// Decodes exactly ``length`` octets; any other length throws.
    public init(bytes: [UInt8]) throws(BluenetError) {
        guard bytes.count == Self.length else { throw .serviceDataLength(actual: bytes.count, expected: Self.length) }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func i32(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) })
        }
        crownstoneId = u16(0)
        crownstoneStateId = u16(2)
        switchState = bytes[4]
        eventBitmask = bytes[5]
        reserved = u16(6)
        powerUsage = i32(8)
        accumulatedEnergy = i32(12)
    }

    /// The 16 octets, for the simulated Crownstone.
    public var bytes: [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
            (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        return le(crownstoneId) + le(crownstoneStateId) + [switchState, eventBitmask] + le(reserved)
            + le(powerUsage) + le(accumulatedEnergy)
    }
}
