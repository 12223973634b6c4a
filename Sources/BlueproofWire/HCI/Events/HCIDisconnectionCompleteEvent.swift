/// Disconnection Complete (Core Vol 4, Part E §7.7.5): a connection was terminated.
public struct HCIDisconnectionCompleteEvent: HCIEventParameters {
    public static let code: UInt8 = 0x05
    public static let name = "Disconnect Complete"

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    /// Why the connection ended, an HCI error code (Reason).
    public var reason: HCIStatus

    public init(status: HCIStatus, connectionHandle: UInt16, reason: HCIStatus) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
        connectionHandle = try reader.u16("connection handle")
        reason = HCIStatus(rawValue: try reader.u8("reason"))
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(status.rawValue)
        writer.u16(connectionHandle)
        writer.u8(reason.rawValue)
    }
}
