/// Data Buffer Overflow (Core Vol 4, Part E §7.7.26): the host sent more data packets than the
/// controller had buffers for.
public struct HCIDataBufferOverflowEvent: HCIEventParameters {
    public static let code: UInt8 = 0x1A
    public static let name = "Data Buffer Overflow"

    /// Link_Type: which kind of buffers overflowed.
    public var linkType: HCILinkType

    public init(linkType: HCILinkType) { self.linkType = linkType }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        linkType = HCILinkType(rawValue: try reader.u8("link type"))
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.u8(linkType.rawValue) }
}

/// The Link_Type of Data Buffer Overflow (Core Vol 4, Part E §7.7.26). An open set.
public struct HCILinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Synchronous (SCO/eSCO) buffers.
    public static let synchronous = HCILinkType(rawValue: 0x00)
    /// ACL buffers.
    public static let acl = HCILinkType(rawValue: 0x01)

    public var name: String? {
        switch self {
        case .synchronous: "SCO"
        case .acl: "ACL"
        default: nil
        }
    }

    public var description: String { openSetText(name, rawValue) }
}
