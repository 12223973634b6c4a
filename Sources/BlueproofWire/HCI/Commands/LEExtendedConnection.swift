// LE Extended Create Connection [v1] (OGF 0x08), Core Vol 4, Part E §7.8.66.

extension HCIOpcode {
    /// LE Extended Create Connection [v1], 0x08|0x0043.
    public static let leExtendedCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x0043)
}

/// LE Extended Create Connection [v1]: starts initiating a connection as central, on one or
/// more PHYs (Core Vol 4, Part E §7.8.66). Answered by Command Status; the outcome comes in LE
/// Enhanced Connection Complete.
///
/// On the wire: filter policy, own address type, peer address type and address,
/// Initiating_PHYs, then one 16-octet block per bit set, lowest bit first.
public struct HCILEExtendedCreateConnection: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leExtendedCreateConnection
    public static let name = "LE Extended Create Connection [v1]"
    public static var answeredByCommandStatus: Bool { true }

    /// How to scan and which connection parameters to ask for on one PHY.
    public struct PHYParameters: Hashable, Sendable {
        public var scanInterval: LEScanInterval
        public var scanWindow: LEScanInterval
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
            connectionIntervalMin: LEConnectionInterval,
            connectionIntervalMax: LEConnectionInterval,
            maxLatency: UInt16 = 0,
            supervisionTimeout: LESupervisionTimeout,
            minCELength: LEConnectionEventLength = LEConnectionEventLength(rawValue: 0),
            maxCELength: LEConnectionEventLength = LEConnectionEventLength(rawValue: 0)
        ) {
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
            self.connectionIntervalMin = connectionIntervalMin
            self.connectionIntervalMax = connectionIntervalMax
            self.maxLatency = maxLatency
            self.supervisionTimeout = supervisionTimeout
            self.minCELength = minCELength
            self.maxCELength = maxCELength
        }
    }

    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    public var ownAddressType: LEOwnAddressType
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    /// The PHYs to initiate on; one entry of `phyParameters` per bit.
    public private(set) var initiatingPHYs: LEPHYs
    /// The parameters of each PHY in `initiatingPHYs`, lowest bit first.
    public private(set) var phyParameters: [PHYParameters]

    /// Initiates on the PHYs given parameters (LE 2M only takes connection parameters; its
    /// scan fields are ignored by the controller).
    public init(
        initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress,
        ownAddressType: LEOwnAddressType = .publicDevice,
        peerAddressType: LEAddressType,
        peerAddress: BDAddress,
        le1M: PHYParameters?,
        le2M: PHYParameters? = nil,
        leCoded: PHYParameters? = nil
    ) {
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        var phys: LEPHYs = []
        var parameters: [PHYParameters] = []
        for (bit, value) in [(LEPHYs.le1M, le1M), (.le2M, le2M), (.leCoded, leCoded)] {
            if let value {
                phys.insert(bit)
                parameters.append(value)
            }
        }
        initiatingPHYs = phys
        phyParameters = parameters
    }

    /// The parameters for `phy` (one bit), nil when it is not used.
    public func parameters(for phy: LEPHYs) -> PHYParameters? {
        initiatingPHYs.bits.firstIndex(of: phy).map { phyParameters[$0] }
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        initiatorFilterPolicy = LEInitiatorFilterPolicy(rawValue: try reader.u8("initiator_filter_policy"))
        ownAddressType = LEOwnAddressType(rawValue: try reader.u8("own_address_type"))
        peerAddressType = LEAddressType(rawValue: try reader.u8("peer_address_type"))
        peerAddress = try BDAddress.read(&reader, "peer_address")
        initiatingPHYs = LEPHYs(rawValue: try reader.u8("initiating_phys"))
        var parameters: [PHYParameters] = []
        for phy in initiatingPHYs.bits {
            let name = phy.shortName
            parameters.append(PHYParameters(
                scanInterval: try reader.hciUnit(LEScanInterval.self, "scan_interval[\(name)]"),
                scanWindow: try reader.hciUnit(LEScanInterval.self, "scan_window[\(name)]"),
                connectionIntervalMin: try reader.hciUnit(LEConnectionInterval.self, "connection_interval_min[\(name)]"),
                connectionIntervalMax: try reader.hciUnit(LEConnectionInterval.self, "connection_interval_max[\(name)]"),
                maxLatency: try reader.u16("max_latency[\(name)]"),
                supervisionTimeout: try reader.hciUnit(LESupervisionTimeout.self, "supervision_timeout[\(name)]"),
                minCELength: try reader.hciUnit(LEConnectionEventLength.self, "min_ce_length[\(name)]"),
                maxCELength: try reader.hciUnit(LEConnectionEventLength.self, "max_ce_length[\(name)]")))
        }
        phyParameters = parameters
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(initiatorFilterPolicy.rawValue)
        writer.u8(ownAddressType.rawValue)
        writer.u8(peerAddressType.rawValue)
        peerAddress.write(&writer)
        writer.u8(initiatingPHYs.rawValue)
        for parameters in phyParameters {
            writer.hciUnit(parameters.scanInterval)
            writer.hciUnit(parameters.scanWindow)
            writer.hciUnit(parameters.connectionIntervalMin)
            writer.hciUnit(parameters.connectionIntervalMax)
            writer.u16(parameters.maxLatency)
            writer.hciUnit(parameters.supervisionTimeout)
            writer.hciUnit(parameters.minCELength)
            writer.hciUnit(parameters.maxCELength)
        }
    }

    public var fieldList: [HCIPacketDescription.Field] {
        var fields: [HCIPacketDescription.Field] = [
            .describing("initiator_filter_policy", initiatorFilterPolicy),
            .describing("own_address_type", ownAddressType),
            .describing("peer_address_type", peerAddressType),
            .describing("peer_address", peerAddress),
            .describing("initiating_phys", initiatingPHYs),
        ]
        for (phy, parameters) in zip(initiatingPHYs.bits, phyParameters) {
            let suffix = "[\(phy.shortName)]"
            fields += [
                .describing("scan_interval" + suffix, parameters.scanInterval),
                .describing("scan_window" + suffix, parameters.scanWindow),
                .describing("connection_interval_min" + suffix, parameters.connectionIntervalMin),
                .describing("connection_interval_max" + suffix, parameters.connectionIntervalMax),
                .decimal("max_latency" + suffix, parameters.maxLatency),
                .describing("supervision_timeout" + suffix, parameters.supervisionTimeout),
                .describing("min_ce_length" + suffix, parameters.minCELength),
                .describing("max_ce_length" + suffix, parameters.maxCELength),
            ]
        }
        return fields
    }
}
