/// LE Data Length Change (Core Vol 4, Part E §7.7.65.7): the maximum link-layer payload
/// sizes or times of a connection changed.
public struct HCILEDataLengthChangeEvent: HCILEMetaSubevent {
    public static let subeventCode: UInt8 = 0x07
    public static let name = "LE Data Length Change"

    /// Connection_Handle, 12 significant bits.
    public var connectionHandle: UInt16
    /// Max_TX_Octets: largest link-layer payload this side will send.
    public var maxTXOctets: UInt16
    public var maxTXTime: LEPacketTime
    /// Max_RX_Octets: largest link-layer payload this side expects.
    public var maxRXOctets: UInt16
    public var maxRXTime: LEPacketTime

    public init(
        connectionHandle: UInt16, maxTXOctets: UInt16, maxTXTime: LEPacketTime,
        maxRXOctets: UInt16, maxRXTime: LEPacketTime
    ) {
        self.connectionHandle = connectionHandle
        self.maxTXOctets = maxTXOctets
        self.maxTXTime = maxTXTime
        self.maxRXOctets = maxRXOctets
        self.maxRXTime = maxRXTime
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        connectionHandle = try reader.u16("connection handle")
        maxTXOctets = try reader.u16("max TX octets")
        maxTXTime = LEPacketTime(rawValue: try reader.u16("max TX time"))
        maxRXOctets = try reader.u16("max RX octets")
        maxRXTime = LEPacketTime(rawValue: try reader.u16("max RX time"))
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u16(connectionHandle)
        writer.u16(maxTXOctets)
        writer.u16(maxTXTime.rawValue)
        writer.u16(maxRXOctets)
        writer.u16(maxRXTime.rawValue)
    }
}

