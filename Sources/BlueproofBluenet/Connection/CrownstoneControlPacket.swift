import BlueproofWire

/// What `setSwitchState` writes to a Crownstone's control characteristic. The README says only
/// "set the switch state"; the packet and UUIDs are those of the Crownstone firmware protocol
/// of the same period (crownstone/bluenet PROTOCOL.md, v0.4, "Control packet"): type (uint8),
/// reserved (uint8), payload length (uint16, little-endian), payload. The switch command is
/// type 0 with one octet, 0 (off) to 100 (on).
public struct CrownstoneControlPacket: Hashable, Sendable {
    /// The Crownstone service (bluenet-ios-lib protocol/Services.swift).
    public static let crownstoneServiceUUID = BluetoothUUID("24F00000-7D10-4805-BFC1-7663A01C3BFF")!
    /// Its control characteristic (write).
    public static let controlCharacteristicUUID = BluetoothUUID("24F00001-7D10-4805-BFC1-7663A01C3BFF")!
    /// Command type "switch".
    public static let switchType: UInt8 = 0

    /// The switch state the packet sets, 0…100.
    public var switchState: UInt8

    public init(on: Bool) { switchState = on ? 100 : 0 }

    /// A switch command to `switchState` (clamped to 100).
    public init(switchState: UInt8) { self.switchState = min(switchState, 100) }

    public var bytes: [UInt8] { [Self.switchType, 0, 1, 0, switchState] }
}
