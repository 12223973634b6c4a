// Link Control commands (OGF 0x01), Core Vol 4, Part E §7.1.

extension HCIOpcode {
    /// Disconnect, 0x01|0x0006.
    public static let disconnect = HCIOpcode(ogf: 0x01, ocf: 0x0006)
}

/// Disconnect: ends a connection (Core Vol 4, Part E §7.1.6). Answered by Command Status;
/// the outcome comes in Disconnection Complete.
public struct HCIDisconnect: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.disconnect
    public static let name = "Disconnect"
    public static var answeredByCommandStatus: Bool { true }

    public var connectionHandle: UInt16
    /// An error code telling the peer why (Remote User Terminated Connection, Authentication
    /// Failure, Remote Device Terminated Connection due to Low Resources or Power Off,
    /// Unsupported Remote Feature, Pairing with Unit Key Not Supported, Unacceptable
    /// Connection Parameters).
    public var reason: HCIStatus

    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminated) {
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        connectionHandle = try reader.u16("handle")
        reason = HCIStatus(rawValue: try reader.u8("reason"))
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u16(connectionHandle)
        writer.u8(reason.rawValue)
    }

    public var fieldList: [HCIPacketDescription.Field] {
        [.decimal("handle", connectionHandle), .describing("reason", reason)]
    }
}
