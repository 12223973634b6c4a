/// LE Enhanced Connection Complete [v1] (Core Vol 4, Part E §7.7.65.10): LE Connection Complete
/// plus the resolvable private addresses used, when address resolution is on.
public struct HCILEEnhancedConnectionCompleteEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x0A
    public static let name = "LE Enhanced Connection Complete"

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    public var role: HCIConnectionRole
    public var peerAddressType: LEAddressType
    public var peerAddress: BDAddress
    /// Local_Resolvable_Private_Address; all zero when none was used.
    public var localResolvablePrivateAddress: BDAddress
    /// Peer_Resolvable_Private_Address; all zero when none was used.
    public var peerResolvablePrivateAddress: BDAddress
    public var connectionInterval: LEConnectionInterval
    /// Peripheral_Latency, in connection events.
    public var peripheralLatency: UInt16
    public var supervisionTimeout: LESupervisionTimeout
    public var centralClockAccuracy: LEClockAccuracy

    public init(
        status: HCIStatus, connectionHandle: UInt16, role: HCIConnectionRole,
        peerAddressType: LEAddressType, peerAddress: BDAddress,
        localResolvablePrivateAddress: BDAddress, peerResolvablePrivateAddress: BDAddress,
        connectionInterval: LEConnectionInterval, peripheralLatency: UInt16,
        supervisionTimeout: LESupervisionTimeout, centralClockAccuracy: LEClockAccuracy
    ) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
        connectionHandle = try reader.u16("connection handle")
        role = HCIConnectionRole(rawValue: try reader.u8("role"))
        peerAddressType = LEAddressType(rawValue: try reader.u8("peer address type"))
        peerAddress = try BDAddress.read(&reader, "peer address")
        localResolvablePrivateAddress = try BDAddress.read(&reader, "local resolvable private address")
        peerResolvablePrivateAddress = try BDAddress.read(&reader, "peer resolvable private address")
        connectionInterval = LEConnectionInterval(rawValue: try reader.u16("connection interval"))
        peripheralLatency = try reader.u16("peripheral latency")
        supervisionTimeout = LESupervisionTimeout(rawValue: try reader.u16("supervision timeout"))
        centralClockAccuracy = LEClockAccuracy(rawValue: try reader.u8("central clock accuracy"))
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(status.rawValue)
        writer.u16(connectionHandle)
        writer.u8(role.rawValue)
        writer.u8(peerAddressType.rawValue)
        peerAddress.write(&writer)
        localResolvablePrivateAddress.write(&writer)
        peerResolvablePrivateAddress.write(&writer)
        writer.u16(connectionInterval.rawValue)
        writer.u16(peripheralLatency)
        writer.u16(supervisionTimeout.rawValue)
        writer.u8(centralClockAccuracy.rawValue)
    }
}
