// Informational parameters (OGF 0x04), Core Vol 4, Part E §7.4.

extension HCIOpcode {
    /// Read Local Version Information, 0x04|0x0001.
    public static let readLocalVersionInformation = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// Read Local Supported Commands, 0x04|0x0002.
    public static let readLocalSupportedCommands = HCIOpcode(ogf: 0x04, ocf: 0x0002)
    /// Read Local Supported Features, 0x04|0x0003.
    public static let readLocalSupportedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0003)
    /// Read Buffer Size, 0x04|0x0005.
    public static let readBufferSize = HCIOpcode(ogf: 0x04, ocf: 0x0005)
    /// Read BD_ADDR, 0x04|0x0009.
    public static let readBDADDR = HCIOpcode(ogf: 0x04, ocf: 0x0009)
}

/// The Core specification version an HCI or LMP/LL version number stands for
/// (Assigned Numbers §2.1), e.g. `0x0c` → `"5.3"`; nil for numbers this table does not know.
public func bluetoothCoreVersionName(_ version: UInt8) -> String? {
    switch version {
    case 0x00: "1.0b"
    case 0x01: "1.1"
    case 0x02: "1.2"
    case 0x03: "2.0"
    case 0x04: "2.1"
    case 0x05: "3.0"
    case 0x06: "4.0"
    case 0x07: "4.1"
    case 0x08: "4.2"
    case 0x09: "5.0"
    case 0x0A: "5.1"
    case 0x0B: "5.2"
    case 0x0C: "5.3"
    case 0x0D: "5.4"
    case 0x0E: "6.0"
    default: nil
    }
}

/// Read Local Version Information: the controller's HCI and LMP/LL versions and its
/// manufacturer (Core Vol 4, Part E §7.4.1).
public struct HCIReadLocalVersionInformation: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.readLocalVersionInformation
    public static let name = "Read Local Version Information"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var hciVersion: UInt8
        public var hciSubversion: UInt16
        public var lmpVersion: UInt8
        /// The manufacturer, as a Bluetooth SIG company identifier.
        public var companyIdentifier: UInt16
        public var lmpSubversion: UInt16

        public init(status: HCIStatus = .success, hciVersion: UInt8, hciSubversion: UInt16, lmpVersion: UInt8,
                    companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.status = status
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            hciVersion = try reader.u8("hci_version")
            hciSubversion = try reader.u16("hci_subversion")
            lmpVersion = try reader.u8("lmp_version")
            companyIdentifier = try reader.u16("company_identifier")
            lmpSubversion = try reader.u16("lmp_subversion")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u8(hciVersion)
            writer.u16(hciSubversion)
            writer.u8(lmpVersion)
            writer.u16(companyIdentifier)
            writer.u16(lmpSubversion)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [
                .describing("status", status),
                .init("hci_version", versionText(hciVersion)),
                .hexadecimal("hci_subversion", hciSubversion),
                .init("lmp_version", versionText(lmpVersion)),
                .hexadecimal("company_identifier", companyIdentifier),
                .hexadecimal("lmp_subversion", lmpSubversion),
            ]
        }

        private func versionText(_ version: UInt8) -> String {
            guard let name = bluetoothCoreVersionName(version) else { return "0x\(hex(version))" }
            return "0x\(hex(version)) (\(name))"
        }
    }
}

/// Read Local Supported Commands: the 64-octet mask of the commands the controller
/// supports (Core Vol 4, Part E §7.4.2; mask layout §6.27).
public struct HCIReadLocalSupportedCommands: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.readLocalSupportedCommands
    public static let name = "Read Local Supported Commands"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var supportedCommands: HCISupportedCommands

        public init(status: HCIStatus = .success, supportedCommands: HCISupportedCommands) {
            self.status = status
            self.supportedCommands = supportedCommands
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            supportedCommands = HCISupportedCommands(try reader.bytes(HCISupportedCommands.size, "supported_commands"))
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.append(supportedCommands.bytes)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [.describing("status", status), .init("supported_commands", hex(supportedCommands.bytes))]
        }
    }
}

/// Read Local Supported Features: the controller's LMP features page 0
/// (Core Vol 4, Part E §7.4.3; bits in Vol 2, Part C §3.3).
public struct HCIReadLocalSupportedFeatures: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.readLocalSupportedFeatures
    public static let name = "Read Local Supported Features"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        /// The 8 feature octets as a little-endian bit mask (bit 0 of octet 0 is bit 0).
        public var lmpFeatures: UInt64

        public init(status: HCIStatus = .success, lmpFeatures: UInt64) {
            self.status = status
            self.lmpFeatures = lmpFeatures
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            lmpFeatures = try reader.u64("lmp_features")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u64(lmpFeatures)
        }

        /// Bit 38 of page 0: "LE Supported (Controller)" (Vol 2, Part C §3.3).
        public var leSupportedController: Bool { lmpFeatures & (1 << 38) != 0 }

        public var fieldList: [HCIPacketDescription.Field] {
            [.describing("status", status), .init("lmp_features", "0x\(hex(lmpFeatures))")]
        }
    }
}

/// Read Buffer Size: the controller's ACL and synchronous data buffers
/// (Core Vol 4, Part E §7.4.5). An LE host reads LE Read Buffer Size first and falls back to
/// this when that reports zero.
public struct HCIReadBufferSize: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.readBufferSize
    public static let name = "Read Buffer Size"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var aclDataPacketLength: UInt16
        public var synchronousDataPacketLength: UInt8
        public var totalNumACLDataPackets: UInt16
        public var totalNumSynchronousDataPackets: UInt16

        public init(status: HCIStatus = .success, aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8,
                    totalNumACLDataPackets: UInt16, totalNumSynchronousDataPackets: UInt16) {
            self.status = status
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalNumACLDataPackets = totalNumACLDataPackets
            self.totalNumSynchronousDataPackets = totalNumSynchronousDataPackets
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            aclDataPacketLength = try reader.u16("acl_data_packet_length")
            synchronousDataPacketLength = try reader.u8("synchronous_data_packet_length")
            totalNumACLDataPackets = try reader.u16("total_num_acl_data_packets")
            totalNumSynchronousDataPackets = try reader.u16("total_num_synchronous_data_packets")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(aclDataPacketLength)
            writer.u8(synchronousDataPacketLength)
            writer.u16(totalNumACLDataPackets)
            writer.u16(totalNumSynchronousDataPackets)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [
                .describing("status", status),
                .decimal("acl_data_packet_length", aclDataPacketLength),
                .decimal("synchronous_data_packet_length", synchronousDataPacketLength),
                .decimal("total_num_acl_data_packets", totalNumACLDataPackets),
                .decimal("total_num_synchronous_data_packets", totalNumSynchronousDataPackets),
            ]
        }
    }
}

/// Read BD_ADDR: the controller's public device address (Core Vol 4, Part E §7.4.6).
public struct HCIReadBDADDR: HCIParameterlessCommand {
    public static let opcode = HCIOpcode.readBDADDR
    public static let name = "Read BD_ADDR"

    public init() {}

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var bdAddr: BDAddress

        public init(status: HCIStatus = .success, bdAddr: BDAddress) {
            self.status = status
            self.bdAddr = bdAddr
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            bdAddr = try BDAddress.read(&reader, "bd_addr")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            bdAddr.write(&writer)
        }

        public var fieldList: [HCIPacketDescription.Field] { [.describing("status", status), .describing("bd_addr", bdAddr)] }
    }
}
