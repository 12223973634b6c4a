import BlueproofCapture
import BlueproofWire

/// A protocol layer a packet carries, for `inspect --layer`.
public enum CaptureLayer: String, CaseIterable, Hashable, Sendable {
    /// HCI commands and events.
    case hci
    /// Any ACL data.
    case acl
    /// ACL data holding an L2CAP frame (or a fragment of one): ATT, SMP and signalling included.
    case l2cap
    /// L2CAP signalling (CID 0x0001 BR/EDR, 0x0005 LE).
    case signal
    /// ATT (CID 0x0004).
    case att
    /// SMP (CID 0x0006 LE, 0x0007 BR/EDR).
    case smp
    case sco
    case iso
}

/// What a packet is about: the layers it carries and the connection handle it names.
public struct PacketContext: Hashable, Sendable {
    public var layers: Set<CaptureLayer>
    public var handle: UInt16?
}

/// Tells each record of a capture its layers and connection handle, sans I/O: feed the records
/// in order. It remembers, per handle and direction, the channel of the L2CAP frame being
/// fragmented, so a continuation fragment is on the layer its first fragment was (Core Vol 3,
/// Part A §7.2); that memory is bounded by ``maximumWays``.
public struct PacketClassifier: Sendable {
    /// Handle/direction pairs remembered; past that the map starts over.
    static let maximumWays = 4096

    private var channels: [UInt32: UInt16] = [:]

    public init() {}

    public mutating func classify(_ record: CaptureRecord) -> PacketContext {
        let payload = record.packet.payload
        switch record.packet.type {
        case .command:
            return PacketContext(layers: [.hci], handle: Self.commandHandle(payload))
        case .event:
            return PacketContext(layers: [.hci], handle: Self.eventHandle(payload))
        case .acl:
            guard payload.count >= 4 else { return PacketContext(layers: [.acl], handle: nil) }
            let handle = (UInt16(payload[0]) | UInt16(payload[1]) << 8) & 0x0FFF
            let starts = (payload[1] >> 4) & 0x3 != 0x1
            let way = UInt32(handle) << 1 | (record.direction == .sent ? 0 : 1)
            if starts, payload.count >= 8 {
                if channels.count >= Self.maximumWays { channels = [:] }
                channels[way] = UInt16(payload[6]) | UInt16(payload[7]) << 8
            }
            return PacketContext(layers: Self.layers(channel: channels[way]), handle: handle)
        case .sco:
            return PacketContext(layers: [.sco], handle: payload.count >= 2 ? (UInt16(payload[0]) | UInt16(payload[1]) << 8) & 0x0FFF : nil)
        case .iso:
            return PacketContext(layers: [.iso], handle: payload.count >= 2 ? (UInt16(payload[0]) | UInt16(payload[1]) << 8) & 0x0FFF : nil)
        default:
            return PacketContext(layers: [], handle: nil)
        }
    }

    static func layers(channel: UInt16?) -> Set<CaptureLayer> {
        switch channel {
        case nil: [.acl]
        case 0x0001, 0x0005: [.acl, .l2cap, .signal]
        case 0x0004: [.acl, .l2cap, .att]
        case 0x0006, 0x0007: [.acl, .l2cap, .smp]
        default: [.acl, .l2cap]
        }
    }

    /// Commands whose first parameter is a connection handle (Core Vol 4, Part E §7).
    static let handleCommands: Set<UInt16> = [
        0x0406, 0x041B, 0x041D,  // Disconnect, Read Remote Supported Features, Read Remote Version
        0x1405,                  // Read RSSI
        0x2013, 0x2016, 0x2019, 0x201A, 0x201B,  // LE Connection Update, Read Remote Features, Start Encryption, LTK replies
        0x2020, 0x2021, 0x2022, 0x2030, 0x2032,  // Remote Conn Param replies, Set Data Length, Read PHY, Set PHY
    ]

    static func commandHandle(_ payload: [UInt8]) -> UInt16? {
        guard payload.count >= 5 else { return nil }
        let opcode = UInt16(payload[0]) | UInt16(payload[1]) << 8
        return handleCommands.contains(opcode) ? handle(payload, 3) : nil
    }

    /// The handle an event names: after the status for the connection events, the first of
    /// Number Of Completed Packets, after the subevent (and status) for LE ones, after the
    /// return status for Command Complete of a handle command.
    static func eventHandle(_ payload: [UInt8]) -> UInt16? {
        guard payload.count >= 3 else { return nil }
        switch payload[0] {
        case 0x03, 0x05, 0x08, 0x0B, 0x0C, 0x30:  // Connection Complete, Disconnection Complete, Encryption Change, Remote Features, Version, Key Refresh
            return handle(payload, 3)
        case 0x13:  // Number Of Completed Packets: the first handle
            return payload[2] > 0 ? handle(payload, 3) : nil
        case 0x0E:  // Command Complete: num, opcode, status, handle
            guard payload.count >= 8, handleCommands.contains(word(payload, 3) ?? 0) else { return nil }
            return handle(payload, 6)
        case 0x3E:
            switch payload[2] {
            case 0x01, 0x03, 0x04, 0x0A, 0x0C, 0x29: return handle(payload, 4)  // status first
            case 0x06, 0x07, 0x14: return handle(payload, 3)                    // handle first
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The little-endian 16-bit word at `at`, nil past the end.
    private static func word(_ payload: [UInt8], _ at: Int) -> UInt16? {
        guard payload.count >= at + 2 else { return nil }
        return UInt16(payload[at]) | UInt16(payload[at + 1]) << 8
    }

    /// The connection handle (12 bits) at `at`.
    private static func handle(_ payload: [UInt8], _ at: Int) -> UInt16? {
        word(payload, at).map { $0 & 0x0FFF }
    }
}
