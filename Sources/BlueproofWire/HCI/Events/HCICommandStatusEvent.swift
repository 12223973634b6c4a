/// Command Status (Core Vol 4, Part E §7.7.15): the controller accepted (or refused) a command
/// whose outcome a later event reports; it also grants Num_HCI_Command_Packets credits.
public struct HCICommandStatusEvent: HCIEventParameters {
    public static let code: UInt8 = 0x0F
    public static let name = "Command Status"

    public var status: HCIStatus
    /// How many command packets the host may now send (Num_HCI_Command_Packets).
    public var numHCICommandPackets: UInt8
    /// The command this answers (Command_Opcode); 0x0000 for a pure credit update.
    public var commandOpcode: HCIOpcode

    public init(status: HCIStatus, numHCICommandPackets: UInt8, commandOpcode: HCIOpcode) {
        self.status = status
        self.numHCICommandPackets = numHCICommandPackets
        self.commandOpcode = commandOpcode
    }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
        numHCICommandPackets = try reader.u8("num HCI command packets")
        commandOpcode = HCIOpcode(rawValue: try reader.u16("command opcode"))
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(status.rawValue)
        writer.u8(numHCICommandPackets)
        writer.u16(commandOpcode.rawValue)
    }
}
