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

    /// Decodes a written value: exactly a switch command with a state of 0…100; anything else
    /// throws with the reason.
    public init(bytes: [UInt8]) throws(BluenetError) {
        guard bytes.count == 5 else { throw .controlPacket("\(bytes.count) octets, a switch command has 5") }
        guard bytes[0] == Self.switchType else { throw .controlPacket("command type \(bytes[0]), only switch (0) is served") }
        guard bytes[2] == 1, bytes[3] == 0 else { throw .controlPacket("payload length \(UInt16(bytes[2]) | UInt16(bytes[3]) << 8), switch has 1") }
        guard bytes[4] <= 100 else { throw .controlPacket("switch state \(bytes[4]), at most 100") }
        switchState = bytes[4]
    }
}
