/// LE Connection Update Complete (Core Vol 4, Part E §7.7.65.3): the connection parameters
/// of a connection changed, or changing them failed.
public struct HCILEConnectionUpdateCompleteEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x03
    public static let name = "LE Connection Update Complete"

    public var status: HCIStatus
    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    public var connectionInterval: LEConnectionInterval
    /// Peripheral_Latency, in connection events.
    public var peripheralLatency: UInt16
    public var supervisionTimeout: LESupervisionTimeout

    public init(
        status: HCIStatus, connectionHandle: UInt16, connectionInterval: LEConnectionInterval,
        peripheralLatency: UInt16, supervisionTimeout: LESupervisionTimeout
    ) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
        connectionHandle = try reader.u16("connection handle")
        connectionInterval = LEConnectionInterval(rawValue: try reader.u16("connection interval"))
        peripheralLatency = try reader.u16("peripheral latency")
        supervisionTimeout = LESupervisionTimeout(rawValue: try reader.u16("supervision timeout"))
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(status.rawValue)
        writer.u16(connectionHandle)
        writer.u16(connectionInterval.rawValue)
        writer.u16(peripheralLatency)
        writer.u16(supervisionTimeout.rawValue)
    }
}
