/// The commands this project knows, looked up by opcode: their names and how to describe
/// their parameters and return parameters.
public enum HCICommandCatalogue {
    /// The name of a known command, nil for an unknown opcode.
    public static func name(of opcode: HCIOpcode) -> String? {
        nil
    }

    /// Describes a command packet; unknown opcodes become `"Unknown Command"` with the raw bytes.
    public static func describe(_ packet: HCICommandPacket) -> HCIPacketDescription {
        HCIPacketDescription(name: "Unknown Command", fields: [
            .init("opcode", packet.opcode.description), .init("parameters", hex(packet.parameters)),
        ])
    }

    /// Describes the return parameters of a Command Complete for `opcode`.
    public static func describeReturn(of opcode: HCIOpcode, _ returnParameters: [UInt8]) -> [HCIPacketDescription.Field] {
        [.init("return", hex(returnParameters))]
    }
}
