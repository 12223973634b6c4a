/// Connection Complete (Core Vol 4, Part E §7.7.3): a BR/EDR connection (ACL or SCO) was
/// set up, or failed to be.
public struct HCIConnectionCompleteEvent: HCIEventParameters {
    public static let code: UInt8 = 0x03
    public static let name = "Connect Complete"

    /// Link_Type: 0x00 SCO, 0x01 ACL (§7.7.3).
    public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let sco = LinkType(rawValue: 0x00)
        public static let acl = LinkType(rawValue: 0x01)

        public var description: String {
            openSetText(self == .sco ? "SCO" : self == .acl ? "ACL" : nil, rawValue)
        }
    }

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    public var address: BDAddress
    public var linkType: LinkType
    /// Encryption_Enabled: 0x00 off, 0x01 on (§7.7.3).
    public var encryptionEnabled: UInt8

    public init(status: HCIStatus, connectionHandle: UInt16, address: BDAddress, linkType: LinkType,
                encryptionEnabled: UInt8 = 0) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.address = address
        self.linkType = linkType
        self.encryptionEnabled = encryptionEnabled
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
        connectionHandle = try reader.u16("connection handle")
        address = try BDAddress.read(&reader, "BD_ADDR")
        linkType = LinkType(rawValue: try reader.u8("link type"))
        encryptionEnabled = try reader.u8("encryption enabled")
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(status.rawValue)
        writer.u16(connectionHandle)
        address.write(&writer)
        writer.u8(linkType.rawValue)
        writer.u8(encryptionEnabled)
    }
}
