/// The one-byte packet indicator that precedes every HCI packet on a UART (H4) link
/// (Core Vol 4, Part A §2). An open set: unknown values are representable.
public struct H4PacketType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let command = H4PacketType(rawValue: 0x01)
    public static let acl = H4PacketType(rawValue: 0x02)
    public static let sco = H4PacketType(rawValue: 0x03)
    public static let event = H4PacketType(rawValue: 0x04)
    public static let iso = H4PacketType(rawValue: 0x05)

    /// Size of the HCI header that follows the indicator, and where its length field sits:
    /// (header size, offset of the length field, width of the length field, mask on the length).
    var header: (size: Int, lengthOffset: Int, lengthWidth: Int, lengthMask: Int)? {
        switch self {
        case .command: (3, 2, 1, 0xFF)     // opcode(2) length(1), Vol 4 Part E §5.4.1
        case .acl: (4, 2, 2, 0xFFFF)       // handle+flags(2) length(2), §5.4.2
        case .sco: (3, 2, 1, 0xFF)         // handle+flags(2) length(1), §5.4.3
        case .event: (2, 1, 1, 0xFF)       // code(1) length(1), §5.4.4
        case .iso: (4, 2, 2, 0x3FFF)       // handle+flags(2) length(14 bits), §5.4.5
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .command: "command"
        case .acl: "acl"
        case .sco: "sco"
        case .event: "event"
        case .iso: "iso"
        default: "type 0x\(hex(rawValue))"
        }
    }
}
