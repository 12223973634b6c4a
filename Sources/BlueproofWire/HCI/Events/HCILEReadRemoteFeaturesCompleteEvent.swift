/// LE Read Remote Features Complete (Core Vol 4, Part E §7.7.65.4): the features the peer's
/// link layer supports, answering LE Read Remote Features.
public struct HCILEReadRemoteFeaturesCompleteEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x04
    public static let name = "LE Read Remote Used Features"

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    /// LE_Features: the peer's link-layer feature bits (Core Vol 6, Part B §4.6), as LE Read
    /// Local Supported Features returns the local ones.
    public var leFeatures: HCILEFeatures

    public init(status: HCIStatus, connectionHandle: UInt16, leFeatures: HCILEFeatures) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.leFeatures = leFeatures
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
        connectionHandle = try reader.u16("connection handle")
        leFeatures = HCILEFeatures(rawValue: try reader.u64("LE features"))
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(status.rawValue)
        writer.u16(connectionHandle)
        writer.u64(leFeatures.rawValue)
    }
}
