/// Command Complete (Core Vol 4, Part E §7.7.14): the controller finished a command and
/// returns its return parameters; it also grants Num_HCI_Command_Packets command credits.
///
/// A Command Complete with opcode 0x0000 answers no command: it only updates the credits.
public struct HCICommandCompleteEvent: HCIEventParameters {
    public static let code: UInt8 = 0x0E
    public static let name = "Command Complete"

    /// How many command packets the host may now send (Num_HCI_Command_Packets).
    public var numHCICommandPackets: UInt8
    /// The command this completes (Command_Opcode); 0x0000 for a pure credit update.
    public var commandOpcode: HCIOpcode
    /// Return_Parameters as bytes; decode them with ``decodeReturnParameters(as:)``.
    public var returnParameters: [UInt8]

    public init(numHCICommandPackets: UInt8, commandOpcode: HCIOpcode, returnParameters: [UInt8]) {
        self.numHCICommandPackets = numHCICommandPackets
        self.commandOpcode = commandOpcode
        self.returnParameters = returnParameters
    }

    /// A Command Complete answering `command` with `returnParameters`.
    public init<C: HCICommand>(numHCICommandPackets: UInt8, command: C.Type, returnParameters: C.ReturnParameters) {
        var writer = ByteWriter()
        returnParameters.encode(into: &writer)
        self.init(numHCICommandPackets: numHCICommandPackets, commandOpcode: C.opcode, returnParameters: writer.bytes)
    }

    /// True when the event answers no command (opcode 0x0000) and only grants credits.
    public var isCreditUpdateOnly: Bool { commandOpcode.rawValue == 0x0000 }

    public init(parameters reader: inout ByteReader) throws(WireError) {
        numHCICommandPackets = try reader.u8("num HCI command packets")
        commandOpcode = HCIOpcode(rawValue: try reader.u16("command opcode"))
        returnParameters = reader.rest()
    }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.u8(numHCICommandPackets)
        writer.u16(commandOpcode.rawValue)
        writer.append(returnParameters)
    }

    /// Decodes the return parameters as those of `command`, whose opcode must be this event's.
    /// Bytes after the known return parameters are tolerated (later spec versions add fields).
    /// Offsets in errors count from the start of the event packet.
    public func decodeReturnParameters<C: HCICommand>(as command: C.Type) throws(WireError) -> C.ReturnParameters {
        guard commandOpcode == C.opcode else {
            throw WireError(offset: 3, context: "HCI Command Complete: command opcode",
                            reason: .invalidValue("\(commandOpcode), expected \(C.opcode) (\(C.name))"))
        }
        var reader = ByteReader(returnParameters, context: "HCI Command Complete (\(C.name))", baseOffset: 5)
        return try C.ReturnParameters(returnParameters: &reader)
    }
}
