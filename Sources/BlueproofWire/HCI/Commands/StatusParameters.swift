// Status parameters (OGF 0x05), Core Vol 4, Part E §7.5.

extension HCIOpcode {
    /// Read RSSI, 0x05|0x0005.
    public static let readRSSI = HCIOpcode(ogf: 0x05, ocf: 0x0005)
}

/// Read RSSI: the received signal strength of a connection (Core Vol 4, Part E §7.5.4).
/// For LE the value is the absolute receiver signal strength in dBm.
public struct HCIReadRSSI: HCICommand, HCIFieldListing {
    public static let opcode = HCIOpcode.readRSSI
    public static let name = "Read RSSI"

    /// The connection handle.
    public var handle: UInt16

    public init(handle: UInt16) { self.handle = handle }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        handle = try reader.u16("handle")
        try reader.requireEnd()
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.u16(handle) }

    public var fieldList: [HCIPacketDescription.Field] { [.decimal("handle", handle)] }

    public struct ReturnParameters: HCIReturnParameters, HCIFieldListing {
        public var status: HCIStatus
        public var handle: UInt16
        /// Signed, in dBm.
        public var rssi: Int8

        public init(status: HCIStatus = .success, handle: UInt16, rssi: Int8) {
            self.status = status
            self.handle = handle
            self.rssi = rssi
        }

        public init(returnParameters reader: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try reader.u8("status"))
            handle = try reader.u16("handle")
            rssi = try reader.i8("rssi")
        }

        public func encode(into writer: inout ByteWriter) {
            writer.u8(status.rawValue)
            writer.u16(handle)
            writer.i8(rssi)
        }

        public var fieldList: [HCIPacketDescription.Field] {
            [.describing("status", status), .decimal("handle", handle), .init("rssi", "\(rssi) dBm")]
        }
    }
}
