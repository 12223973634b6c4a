/// Hardware Error (Core Vol 4, Part E §7.7.16): the controller hit a hardware failure.
public struct HCIHardwareErrorEvent: HCIEventParameters {
    public static let code: UInt8 = 0x10
    public static let name = "Hardware Error"

    /// Hardware_Code: vendor-specific meaning.
    public var hardwareCode: UInt8

    public init(hardwareCode: UInt8) { self.hardwareCode = hardwareCode }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        hardwareCode = try reader.u8("hardware code")
    }

    public func encodeParameters(into writer: inout ByteWriter) { writer.u8(hardwareCode) }
}
