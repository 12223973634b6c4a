// LE Controller commands (OGF 0x08) for setup: event mask, buffers, features, random
// address. Core Vol 4, Part E §7.8.

extension HCIOpcode {
    /// LE Set Event Mask, 0x08|0x0001.
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    /// LE Read Buffer Size [v1], 0x08|0x0002.
    public static let leReadBufferSize = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    /// LE Read Local Supported Features, 0x08|0x0003.
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// LE Set Random Address, 0x08|0x0005.
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    /// LE Read Buffer Size [v2], 0x08|0x0060.
    public static let leReadBufferSizeV2 = HCIOpcode(ogf: 0x08, ocf: 0x0060)
}

/// Which LE subevents the controller may send inside LE Meta events
/// (Core Vol 4, Part E §7.8.1). An open set of 64 bits.
public struct HCILEEventMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let connectionComplete = HCILEEventMask(rawValue: 1 << 0)
    public static let advertisingReport = HCILEEventMask(rawValue: 1 << 1)
    public static let connectionUpdateComplete = HCILEEventMask(rawValue: 1 << 2)
    public static let readRemoteFeaturesComplete = HCILEEventMask(rawValue: 1 << 3)
    public static let longTermKeyRequest = HCILEEventMask(rawValue: 1 << 4)
    public static let remoteConnectionParameterRequest = HCILEEventMask(rawValue: 1 << 5)
    public static let dataLengthChange = HCILEEventMask(rawValue: 1 << 6)
    public static let enhancedConnectionComplete = HCILEEventMask(rawValue: 1 << 9)
    public static let phyUpdateComplete = HCILEEventMask(rawValue: 1 << 11)
    public static let extendedAdvertisingReport = HCILEEventMask(rawValue: 1 << 12)

    /// The value after Reset: bits 0 to 4 set.
    public static let `default` = HCILEEventMask(rawValue: 0x1F)

    public var description: String { "0x\(hex(rawValue))" }
}

/// LE Set Event Mask: chooses the LE subevents the controller sends (Core Vol 4, Part E §7.8.1).
public struct HCILESetEventMask: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetEventMask
    public static let name = "LE Set Event Mask"

    public var leEventMask: HCILEEventMask

    public init(leEventMask: HCILEEventMask) { self.leEventMask = leEventMask }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        leEventMask = HCILEEventMask(rawValue: try reader.u64("le_event_mask"))
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.u64(leEventMask.rawValue) }

    public var fieldList: [HCIPacketDescription.Field] { [.describing("le_event_mask", leEventMask)] }
}

/// LE Read Buffer Size [v1]: the size and number of the controller's LE ACL data buffers
/// (Core Vol 4, Part E §7.8.2). A length of zero means the LE and BR/EDR buffers are shared
/// and Read Buffer Size tells their size.
public struct HCILEReadBufferSize: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.leReadBufferSize
    public static let name = "LE Read Buffer Size [v1]"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var leACLDataPacketLength: UInt16
        public var totalNumLEACLDataPackets: UInt8

        public init(status: HCIStatus = .success, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            leACLDataPacketLength = try reader.u16("le_acl_data_packet_length")
            totalNumLEACLDataPackets = try reader.u8("total_num_le_acl_data_packets")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(leACLDataPacketLength)
            writer.u8(totalNumLEACLDataPackets)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [
                .describing("status", status),
                .decimal("le_acl_data_packet_length", leACLDataPacketLength),
                .decimal("total_num_le_acl_data_packets", totalNumLEACLDataPackets),
            ]
        }
    }
}

/// LE Read Buffer Size [v2]: the LE ACL buffers as in [v1], plus the isochronous data
/// buffers (Core Vol 4, Part E §7.8.2).
public struct HCILEReadBufferSizeV2: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.leReadBufferSizeV2
    public static let name = "LE Read Buffer Size [v2]"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var leACLDataPacketLength: UInt16
        public var totalNumLEACLDataPackets: UInt8
        public var isoDataPacketLength: UInt16
        public var totalNumISODataPackets: UInt8

        public init(status: HCIStatus = .success, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8,
                    isoDataPacketLength: UInt16, totalNumISODataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
            self.isoDataPacketLength = isoDataPacketLength
            self.totalNumISODataPackets = totalNumISODataPackets
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            leACLDataPacketLength = try reader.u16("le_acl_data_packet_length")
            totalNumLEACLDataPackets = try reader.u8("total_num_le_acl_data_packets")
            isoDataPacketLength = try reader.u16("iso_data_packet_length")
            totalNumISODataPackets = try reader.u8("total_num_iso_data_packets")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(leACLDataPacketLength)
            writer.u8(totalNumLEACLDataPackets)
            writer.u16(isoDataPacketLength)
            writer.u8(totalNumISODataPackets)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [
                .describing("status", status),
                .decimal("le_acl_data_packet_length", leACLDataPacketLength),
                .decimal("total_num_le_acl_data_packets", totalNumLEACLDataPackets),
                .decimal("iso_data_packet_length", isoDataPacketLength),
                .decimal("total_num_iso_data_packets", totalNumISODataPackets),
            ]
        }
    }
}

/// LE Read Local Supported Features: the controller's link-layer feature bits
/// (Core Vol 4, Part E §7.8.3; bits in Vol 6, Part B §4.6).
public struct HCILEReadLocalSupportedFeatures: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.leReadLocalSupportedFeatures
    public static let name = "LE Read Local Supported Features"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var leFeatures: HCILEFeatures

        public init(status: HCIStatus = .success, leFeatures: HCILEFeatures) {
            self.status = status
            self.leFeatures = leFeatures
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            leFeatures = HCILEFeatures(rawValue: try reader.u64("le_features"))
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u64(leFeatures.rawValue)
        }

        public var fieldList: [HCIPacketDescription.Field] { [.describing("status", status), .describing("le_features", leFeatures)] }
    }
}

/// LE Set Random Address: the random device address the controller uses when a command asks
/// for a random own address (Core Vol 4, Part E §7.8.4).
public struct HCILESetRandomAddress: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.leSetRandomAddress
    public static let name = "LE Set Random Address"

    public var randomAddress: BDAddress

    public init(randomAddress: BDAddress) { self.randomAddress = randomAddress }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        randomAddress = try BDAddress.read(&reader, "random_address")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) { randomAddress.write(&writer) }

    public var fieldList: [HCIPacketDescription.Field] { [.describing("random_address", randomAddress)] }
}
