// LE connection commands (OGF 0x08), Core Vol 4, Part E §7.8.12, §7.8.13, §7.8.18, §7.8.33.

extension HCIOpcode {
    /// LE Create Connection, 0x08|0x000D.
    public static let leCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x000D)
    /// LE Create Connection Cancel, 0x08|0x000E.
    public static let leCreateConnectionCancel = HCIOpcode(ogf: 0x08, ocf: 0x000E)
    /// LE Connection Update, 0x08|0x0013.
    public static let leConnectionUpdate = HCIOpcode(ogf: 0x08, ocf: 0x0013)
    /// LE Set Data Length, 0x08|0x0022.
    public static let leSetDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0022)
}

/// Whom an initiator connects to (Core Vol 4, Part E §7.8.12). An open set.
public struct LEInitiatorFilterPolicy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The peer named by the command's peer address and type.
    public static let peerAddress = LEInitiatorFilterPolicy(rawValue: 0x00)
    /// Any advertiser on the Filter Accept List; the peer address is ignored.
    public static let filterAcceptList = LEInitiatorFilterPolicy(rawValue: 0x01)

    public var name: String? {
        switch self {
        case .peerAddress: "peer-address"
        case .filterAcceptList: "filter-accept-list"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}

/// LE Create Connection: starts initiating a connection as central (Core Vol 4, Part E
/// §7.8.12). Answered by Command Status; the outcome comes in LE Connection Complete (or its
/// enhanced form).
public struct HCILECreateConnection: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leCreateConnection
    public static let name = "LE Create Connection"
    public static var answeredByCommandStatus: Bool { true }

    public var scanInterval: LEScanInterval
    public var scanWindow: LEScanInterval
    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    public var ownAddressType: LEOwnAddressType
    public var connectionIntervalMin: LEConnectionInterval
    public var connectionIntervalMax: LEConnectionInterval
    /// Peripheral latency, in connection events.
    public var maxLatency: UInt16
    public var supervisionTimeout: LESupervisionTimeout
    public var minCELength: LEConnectionEventLength
    public var maxCELength: LEConnectionEventLength

    public init(
        scanInterval: LEScanInterval,
        scanWindow: LEScanInterval,
        initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress,
        peerAddressType: LEAddressType,
        peerAddress: BDAddress,
        ownAddressType: LEOwnAddressType = .publicDevice,
        connectionIntervalMin: LEConnectionInterval,
        connectionIntervalMax: LEConnectionInterval,
        maxLatency: UInt16 = 0,
        supervisionTimeout: LESupervisionTimeout,
        minCELength: LEConnectionEventLength = LEConnectionEventLength(rawValue: 0),
        maxCELength: LEConnectionEventLength = LEConnectionEventLength(rawValue: 0)
    ) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.connectionIntervalMin = connectionIntervalMin
        self.connectionIntervalMax = connectionIntervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        scanInterval = try reader.hciUnit(LEScanInterval.self, "scan_interval")
        scanWindow = try reader.hciUnit(LEScanInterval.self, "scan_window")
        initiatorFilterPolicy = LEInitiatorFilterPolicy(rawValue: try reader.u8("initiator_filter_policy"))
        peerAddressType = LEAddressType(rawValue: try reader.u8("peer_address_type"))
        peerAddress = try BDAddress.read(&reader, "peer_address")
        ownAddressType = LEOwnAddressType(rawValue: try reader.u8("own_address_type"))
        connectionIntervalMin = try reader.hciUnit(LEConnectionInterval.self, "connection_interval_min")
        connectionIntervalMax = try reader.hciUnit(LEConnectionInterval.self, "connection_interval_max")
        maxLatency = try reader.u16("max_latency")
        supervisionTimeout = try reader.hciUnit(LESupervisionTimeout.self, "supervision_timeout")
        minCELength = try reader.hciUnit(LEConnectionEventLength.self, "min_ce_length")
        maxCELength = try reader.hciUnit(LEConnectionEventLength.self, "max_ce_length")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.hciUnit(scanInterval)
        writer.hciUnit(scanWindow)
        writer.u8(initiatorFilterPolicy.rawValue)
        writer.u8(peerAddressType.rawValue)
        peerAddress.write(&writer)
        writer.u8(ownAddressType.rawValue)
        writer.hciUnit(connectionIntervalMin)
        writer.hciUnit(connectionIntervalMax)
        writer.u16(maxLatency)
        writer.hciUnit(supervisionTimeout)
        writer.hciUnit(minCELength)
        writer.hciUnit(maxCELength)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .describing("scan_interval", scanInterval),
            .describing("scan_window", scanWindow),
            .describing("initiator_filter_policy", initiatorFilterPolicy),
            .describing("peer_address_type", peerAddressType),
            .describing("peer_address", peerAddress),
            .describing("own_address_type", ownAddressType),
            .describing("connection_interval_min", connectionIntervalMin),
            .describing("connection_interval_max", connectionIntervalMax),
            .decimal("max_latency", maxLatency),
            .describing("supervision_timeout", supervisionTimeout),
            .describing("min_ce_length", minCELength),
            .describing("max_ce_length", maxCELength),
        ]
    }
}

/// LE Create Connection Cancel: stops a pending LE Create Connection (Core Vol 4, Part E
/// §7.8.13). No parameters; Command Complete carries a status.
public struct HCILECreateConnectionCancel: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.leCreateConnectionCancel
    public static let name = "LE Create Connection Cancel"

    public init() {}
}

/// LE Connection Update: asks for new connection parameters (Core Vol 4, Part E §7.8.18).
/// Answered by Command Status; the outcome comes in LE Connection Update Complete.
public struct HCILEConnectionUpdate: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leConnectionUpdate
    public static let name = "LE Connection Update"
    public static var answeredByCommandStatus: Bool { true }

    public var connectionHandle: UInt16
    public var connectionIntervalMin: LEConnectionInterval
    public var connectionIntervalMax: LEConnectionInterval
    /// Peripheral latency, in connection events.
    public var maxLatency: UInt16
    public var supervisionTimeout: LESupervisionTimeout
    public var minCELength: LEConnectionEventLength
    public var maxCELength: LEConnectionEventLength

    public init(
        connectionHandle: UInt16,
        connectionIntervalMin: LEConnectionInterval,
        connectionIntervalMax: LEConnectionInterval,
        maxLatency: UInt16 = 0,
        supervisionTimeout: LESupervisionTimeout,
        minCELength: LEConnectionEventLength = LEConnectionEventLength(rawValue: 0),
        maxCELength: LEConnectionEventLength = LEConnectionEventLength(rawValue: 0)
    ) {
        self.connectionHandle = connectionHandle
        self.connectionIntervalMin = connectionIntervalMin
        self.connectionIntervalMax = connectionIntervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        connectionHandle = try reader.u16("handle")
        connectionIntervalMin = try reader.hciUnit(LEConnectionInterval.self, "connection_interval_min")
        connectionIntervalMax = try reader.hciUnit(LEConnectionInterval.self, "connection_interval_max")
        maxLatency = try reader.u16("max_latency")
        supervisionTimeout = try reader.hciUnit(LESupervisionTimeout.self, "supervision_timeout")
        minCELength = try reader.hciUnit(LEConnectionEventLength.self, "min_ce_length")
        maxCELength = try reader.hciUnit(LEConnectionEventLength.self, "max_ce_length")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u16(connectionHandle)
        writer.hciUnit(connectionIntervalMin)
        writer.hciUnit(connectionIntervalMax)
        writer.u16(maxLatency)
        writer.hciUnit(supervisionTimeout)
        writer.hciUnit(minCELength)
        writer.hciUnit(maxCELength)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [
            .decimal("handle", connectionHandle),
            .describing("connection_interval_min", connectionIntervalMin),
            .describing("connection_interval_max", connectionIntervalMax),
            .decimal("max_latency", maxLatency),
            .describing("supervision_timeout", supervisionTimeout),
            .describing("min_ce_length", minCELength),
            .describing("max_ce_length", maxCELength),
        ]
    }
}

/// LE Set Data Length: suggests the largest payload and transmit time for one connection's
/// link-layer data packets (Core Vol 4, Part E §7.8.33).
public struct HCILESetDataLength: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetDataLength
    public static let name = "LE Set Data Length"

    public var connectionHandle: UInt16
    /// Payload octets, 27...251.
    public var txOctets: UInt16
    /// Microseconds, 328...17040.
    public var txTime: LEPacketTime

    public init(connectionHandle: UInt16, txOctets: UInt16, txTime: LEPacketTime) {
        self.connectionHandle = connectionHandle
        self.txOctets = txOctets
        self.txTime = txTime
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        connectionHandle = try reader.u16("handle")
        txOctets = try reader.u16("tx_octets")
        txTime = try reader.hciUnit(LEPacketTime.self, "tx_time")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u16(connectionHandle)
        writer.u16(txOctets)
        writer.hciUnit(txTime)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [.decimal("handle", connectionHandle), .decimal("tx_octets", txOctets), .describing("tx_time", txTime)]
    }

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var connectionHandle: UInt16

        public init(status: HCIStatus = .success, connectionHandle: UInt16) {
            self.status = status
            self.connectionHandle = connectionHandle
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            connectionHandle = try reader.u16("handle")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(connectionHandle)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [.describing("status", status), .decimal("handle", connectionHandle)]
        }
    }
}
