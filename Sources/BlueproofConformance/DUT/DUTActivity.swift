import BlueproofCapture
import BlueproofWire

/// What a DUT's host has asked its controller to do, read from the commands it sends (sans
/// I/O): the runner's only sign that an implementation it did not write is up.
struct DUTActivity: Sendable {
    /// LE Set Advertising Enable or LE Set Extended Advertising Enable with enable = 1 (Core
    /// Vol 4, Part E §7.8.9, §7.8.56) was sent.
    private(set) var advertisingEnabled = false
    /// LE Set Scan Enable or LE Set Extended Scan Enable with enable = 1 (§7.8.11, §7.8.65).
    private(set) var scanningEnabled = false
    /// LE Create Connection or LE Extended Create Connection (§7.8.12, §7.8.66) commands.
    private(set) var connectionAttempts = 0

    static let setAdvertisingEnable: UInt16 = 0x200A
    static let setExtendedAdvertisingEnable: UInt16 = 0x2039
    static let setScanEnable: UInt16 = 0x200C
    static let setExtendedScanEnable: UInt16 = 0x2042
    static let createConnection: UInt16 = 0x200D
    static let extendedCreateConnection: UInt16 = 0x2043

    /// Takes one packet crossing the bridge; returns whether it changed what is known.
    @discardableResult
    mutating func observe(_ direction: CaptureDirection, _ packet: H4Packet) -> Bool {
        guard direction == .sent, packet.type == .command, packet.payload.count >= 3 else { return false }
        let opcode = UInt16(packet.payload[0]) | UInt16(packet.payload[1]) << 8
        let enable = packet.payload.count > 3 && packet.payload[3] == 1
        switch opcode {
        case Self.setAdvertisingEnable, Self.setExtendedAdvertisingEnable:
            guard enable, !advertisingEnabled else { return false }
            advertisingEnabled = true
        case Self.setScanEnable, Self.setExtendedScanEnable:
            guard enable, !scanningEnabled else { return false }
            scanningEnabled = true
        case Self.createConnection, Self.extendedCreateConnection:
            connectionAttempts += 1
        default:
            return false
        }
        return true
    }
}
