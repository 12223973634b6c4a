/// LE Connection Complete (Core Vol 4, Part E §7.7.65.1): a new LE connection was created,
/// or creating it failed.
public struct HCILEConnectionCompleteEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x01
    public static let name = "LE Connection Complete"

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    public var role: HCIConnectionRole
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    public var connectionInterval: LEConnectionInterval
    /// Peripheral_Latency, in connection events.
    public var peripheralLatency: UInt16
    public var supervisionTimeout: LESupervisionTimeout
    public var centralClockAccuracy: LEClockAccuracy

    public init(
        status: HCIStatus, connectionHandle: UInt16, role: HCIConnectionRole,
        peerAddressType: LEAddressType, peerAddress: BDAddress,
        connectionInterval: LEConnectionInterval, peripheralLatency: UInt16,
        supervisionTimeout: LESupervisionTimeout, centralClockAccuracy: LEClockAccuracy
    ) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        self = try Self.decode(&reader, enhanced: false).event
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        encode(into: &writer, resolvablePrivateAddresses: nil)
    }

    /// The layout LE Enhanced Connection Complete shares: with `enhanced`, the local and peer
    /// resolvable private addresses follow the peer address (§7.7.65.10); otherwise they are zero.
    static func decode(_ reader: inout ByteReader, enhanced: Bool) throws(WireError)
        -> (event: Self, resolvablePrivateAddresses: (local: BDAddress, peer: BDAddress)) {
        let status = HCIStatus(rawValue: try reader.u8("status"))
        let connectionHandle = try reader.u16("connection handle")
        let role = HCIConnectionRole(rawValue: try reader.u8("role"))
        let peerAddressType = LEAddressType(rawValue: try reader.u8("peer address type"))
        let peerAddress = try BDAddress.read(&reader, "peer address")
        var addresses = (local: BDAddress.zero, peer: BDAddress.zero)
        if enhanced {
            addresses.local = try BDAddress.read(&reader, "local resolvable private address")
            addresses.peer = try BDAddress.read(&reader, "peer resolvable private address")
        }
        let event = Self(
            status: status, connectionHandle: connectionHandle, role: role,
            peerAddressType: peerAddressType, peerAddress: peerAddress,
            connectionInterval: LEConnectionInterval(rawValue: try reader.u16("connection interval")),
            peripheralLatency: try reader.u16("peripheral latency"),
            supervisionTimeout: LESupervisionTimeout(rawValue: try reader.u16("supervision timeout")),
            centralClockAccuracy: LEClockAccuracy(rawValue: try reader.u8("central clock accuracy")))
        return (event, addresses)
    }

    /// Encodes the layout; with `resolvablePrivateAddresses`, the enhanced one (§7.7.65.10).
    func encode(into writer: inout ByteWriter, resolvablePrivateAddresses: (local: BDAddress, peer: BDAddress)?) {
        writer.u8(status.rawValue)
        writer.u16(connectionHandle)
        writer.u8(role.rawValue)
        writer.u8(peerAddressType.rawValue)
        peerAddress.write(&writer)
        if let resolvablePrivateAddresses {
            resolvablePrivateAddresses.local.write(&writer)
            resolvablePrivateAddresses.peer.write(&writer)
        }
        writer.u16(connectionInterval.rawValue)
        writer.u16(peripheralLatency)
        writer.u16(supervisionTimeout.rawValue)
        writer.u8(centralClockAccuracy.rawValue)
    }
}

/// The Role of the local device on a connection (Core Vol 4, Part E §7.7.65.1). An open set.
public struct HCIConnectionRole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let central = HCIConnectionRole(rawValue: 0x00)
    public static let peripheral = HCIConnectionRole(rawValue: 0x01)

    public var description: String {
        switch self {
        case .central: "central"
        case .peripheral: "peripheral"
        default: "0x\(hex(rawValue))"
        }
    }
}

/// Central_Clock_Accuracy: the central's sleep clock accuracy, as a code (Core Vol 4, Part E
/// §7.7.65.1). An open set.
public struct LEClockAccuracy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let ppm500 = LEClockAccuracy(rawValue: 0x00)
    public static let ppm250 = LEClockAccuracy(rawValue: 0x01)
    public static let ppm150 = LEClockAccuracy(rawValue: 0x02)
    public static let ppm100 = LEClockAccuracy(rawValue: 0x03)
    public static let ppm75 = LEClockAccuracy(rawValue: 0x04)
    public static let ppm50 = LEClockAccuracy(rawValue: 0x05)
    public static let ppm30 = LEClockAccuracy(rawValue: 0x06)
    public static let ppm20 = LEClockAccuracy(rawValue: 0x07)

    /// The accuracy in parts per million, nil for a reserved code.
    public var partsPerMillion: Int? {
        let table = [500, 250, 150, 100, 75, 50, 30, 20]
        return rawValue < table.count ? table[Int(rawValue)] : nil
    }

    public var description: String {
        if let ppm = partsPerMillion { "\(ppm) ppm (0x\(hex(rawValue)))" } else { "reserved (0x\(hex(rawValue)))" }
    }
}
