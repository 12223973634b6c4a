/// An HCI ACL data packet (Core Vol 4, Part E §5.4.2): a 12-bit connection handle, the
/// Packet_Boundary and Broadcast flags, a 16-bit data length and the data.
public struct HCIACLPacket: Hashable, Sendable {
    /// Connection_Handle; only the low 12 bits go on the wire.
    public var handle: UInt16
    public var packetBoundary: HCIACLPacketBoundary
    public var broadcast: HCIACLBroadcast
    /// The data: on LE-U, an L2CAP PDU or a fragment of one.
    public var data: [UInt8]

    public init(handle: UInt16, packetBoundary: HCIACLPacketBoundary,
                broadcast: HCIACLBroadcast = .pointToPoint, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.packetBoundary = packetBoundary
        self.broadcast = broadcast
        self.data = data
    }

    /// Decodes the payload of an H4 ACL packet (after the indicator); the data total length
    /// must match the bytes that follow.
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "HCI ACL data")
        let header = try reader.u16("handle and flags")
        let length = Int(try reader.u16("data total length"))
        guard length == reader.remaining else {
            throw WireError(offset: 2, context: "HCI ACL data: data total length",
                            reason: .lengthMismatch(declared: length, actual: reader.remaining))
        }
        handle = header & 0x0FFF
        packetBoundary = HCIACLPacketBoundary(rawValue: UInt8(truncatingIfNeeded: header >> 12) & 0b11)
        broadcast = HCIACLBroadcast(rawValue: UInt8(truncatingIfNeeded: header >> 14) & 0b11)
        data = reader.rest()
    }

    /// The packet as H4: header then data. Data longer than 65535 bytes cannot be framed;
    /// its length field would wrap.
    public var packet: H4Packet {
        var writer = ByteWriter(capacity: data.count + 4)
        writer.u16((handle & 0x0FFF)
                   | UInt16(packetBoundary.rawValue & 0b11) << 12
                   | UInt16(broadcast.rawValue & 0b11) << 14)
        writer.u16(UInt16(truncatingIfNeeded: data.count))
        writer.append(data)
        return H4Packet(type: .acl, payload: writer.bytes)
    }
}

/// The Packet_Boundary flag of an ACL data packet (Core Vol 4, Part E §5.4.2). An open set of
/// 2-bit values.
public struct HCIACLPacketBoundary: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// First fragment of a non-automatically-flushable PDU (host to controller on LE).
    public static let firstNonFlushable = HCIACLPacketBoundary(rawValue: 0b00)
    /// A continuing fragment.
    public static let continuing = HCIACLPacketBoundary(rawValue: 0b01)
    /// First fragment of an automatically flushable PDU (controller to host on LE).
    public static let firstFlushable = HCIACLPacketBoundary(rawValue: 0b10)
    /// A complete, automatically flushable PDU (not allowed on LE-U).
    public static let complete = HCIACLPacketBoundary(rawValue: 0b11)

    /// True for the two flags that start a higher-layer PDU.
    public var startsPDU: Bool { self == .firstNonFlushable || self == .firstFlushable }

    public var name: String? {
        switch self {
        case .firstNonFlushable: "first non-flushable"
        case .continuing: "continuing"
        case .firstFlushable: "first flushable"
        case .complete: "complete"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// The Broadcast flag of an ACL data packet (Core Vol 4, Part E §5.4.2). An open set of 2-bit
/// values.
public struct HCIACLBroadcast: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Point-to-point: the only value on LE.
    public static let pointToPoint = HCIACLBroadcast(rawValue: 0b00)
    /// BR/EDR broadcast.
    public static let brEdrBroadcast = HCIACLBroadcast(rawValue: 0b01)

    public var name: String? {
        switch self {
        case .pointToPoint: "point-to-point"
        case .brEdrBroadcast: "BR/EDR broadcast"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// The header of an HCI synchronous data packet (Core Vol 4, Part E §5.4.3), for descriptions.
public struct HCISCOPacket: Hashable, Sendable {
    /// Connection_Handle, 12 bits.
    public var handle: UInt16
    /// Packet_Status_Flag, 2 bits.
    public var packetStatus: UInt8
    public var data: [UInt8]

    /// Decodes the payload of an H4 SCO packet; the data total length must match.
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "HCI SCO data")
        let header = try reader.u16("handle and flags")
        let length = Int(try reader.u8("data total length"))
        guard length == reader.remaining else {
            throw WireError(offset: 2, context: "HCI SCO data: data total length",
                            reason: .lengthMismatch(declared: length, actual: reader.remaining))
        }
        handle = header & 0x0FFF
        packetStatus = UInt8(truncatingIfNeeded: header >> 12) & 0b11
        data = reader.rest()
    }
}

/// The header of an HCI ISO data packet (Core Vol 4, Part E §5.4.5), for descriptions.
public struct HCIISOPacket: Hashable, Sendable {
    /// Connection_Handle, 12 bits.
    public var handle: UInt16
    /// PB_Flag, 2 bits.
    public var packetBoundary: UInt8
    /// TS_Flag: a time stamp precedes the ISO data load.
    public var hasTimestamp: Bool
    /// The ISO data load with its optional time stamp and header, undecoded.
    public var data: [UInt8]

    /// Decodes the payload of an H4 ISO packet; the 14-bit data total length must match.
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "HCI ISO data")
        let header = try reader.u16("handle and flags")
        let length = Int(try reader.u16("data total length") & 0x3FFF)
        guard length == reader.remaining else {
            throw WireError(offset: 2, context: "HCI ISO data: data total length",
                            reason: .lengthMismatch(declared: length, actual: reader.remaining))
        }
        handle = header & 0x0FFF
        packetBoundary = UInt8(truncatingIfNeeded: header >> 12) & 0b11
        hasTimestamp = header & 0x4000 != 0
        data = reader.rest()
    }
}
