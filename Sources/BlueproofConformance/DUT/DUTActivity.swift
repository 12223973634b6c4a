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

    /// Takes one packet crossing the bridge; returns whether it changed what is known.
    @discardableResult
    mutating func observe(_ direction: CaptureDirection, _ packet: H4Packet) -> Bool {
        guard direction == .sent, packet.type == .command,
              let command = try? HCICommandPacket(payload: packet.payload) else { return false }
        // Both enable commands, legacy and extended, carry Enable as their first parameter.
        let enable = command.parameters.first == 1
        switch command.opcode {
        case .leSetAdvertisingEnable, .leSetExtendedAdvertisingEnable:
            guard enable, !advertisingEnabled else { return false }
            advertisingEnabled = true
        case .leSetScanEnable, .leSetExtendedScanEnable:
            guard enable, !scanningEnabled else { return false }
            scanningEnabled = true
        case .leCreateConnection, .leExtendedCreateConnection:
            connectionAttempts += 1
        default:
            return false
        }
        return true
    }
}
