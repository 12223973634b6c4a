/// A typed HCI command (Core Vol 4, Part E §7): its opcode, its parameters, and what the
/// controller answers with.
public protocol HCICommand: Sendable, Hashable {
    /// Return parameters carried by Command Complete; ``HCIStatusReturn`` for commands whose
    /// return is only a status, and for commands answered by Command Status.
    associatedtype ReturnParameters: HCIReturnParameters = HCIStatusReturn

    static var opcode: HCIOpcode { get }
    /// The specification's name, e.g. `"LE Set Scan Enable"`.
    static var name: String { get }
    /// True when the controller answers with Command Status and reports the outcome in a
    /// later event (e.g. LE Create Connection → LE Connection Complete), false when it answers
    /// with Command Complete.
    static var answeredByCommandStatus: Bool { get }

    func encodeParameters(into writer: inout ByteWriter)
    init(parameters reader: inout ByteReader) throws(WireError)
}

extension HCICommand {
    public static var answeredByCommandStatus: Bool { false }

    /// The command with its parameters encoded.
    public var commandPacket: HCICommandPacket {
        var parameters = ByteWriter()
        encodeParameters(into: &parameters)
        return HCICommandPacket(opcode: Self.opcode, parameters: parameters.bytes)
    }

    /// The command as an H4 packet: opcode, parameter length, parameters (§5.4.1).
    public var packet: H4Packet { commandPacket.packet }
}

/// The return parameters of a Command Complete event, starting with the status.
public protocol HCIReturnParameters: Sendable, Hashable {
    var status: HCIStatus { get }
    init(returnParameters reader: inout ByteReader) throws(WireError)
    func encode(into writer: inout ByteWriter)
}

/// Return parameters that hold nothing but a status.
public struct HCIStatusReturn: HCIReturnParameters {
    public var status: HCIStatus
    public init(status: HCIStatus) { self.status = status }
    public init(returnParameters reader: inout ByteReader) throws(WireError) {
        status = HCIStatus(rawValue: try reader.u8("status"))
    }
    public func encode(into writer: inout ByteWriter) { writer.u8(status.rawValue) }
}

/// An HCI command packet with its parameters still as bytes (§5.4.1): what the wire holds
/// before the opcode is looked up, and the form unknown commands stay in.
public struct HCICommandPacket: Hashable, Sendable {
    public var opcode: HCIOpcode
    public var parameters: [UInt8]

    public init(opcode: HCIOpcode, parameters: [UInt8]) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Decodes the payload of an H4 command packet (after the indicator).
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "HCI command")
        opcode = HCIOpcode(rawValue: try reader.u16("opcode"))
        let length = Int(try reader.u8("parameter length"))
        guard length == reader.remaining else {
            throw reader.error("parameters", .lengthMismatch(declared: length, actual: reader.remaining))
        }
        parameters = reader.rest()
    }

    public var packet: H4Packet {
        var writer = ByteWriter(capacity: parameters.count + 3)
        writer.u16(opcode.rawValue)
        writer.u8(UInt8(truncatingIfNeeded: parameters.count))
        writer.append(parameters)
        return H4Packet(type: .command, payload: writer.bytes)
    }

    /// Decodes the parameters as `command`; they must be used up exactly.
    public func decode<C: HCICommand>(as command: C.Type) throws(WireError) -> C {
        var reader = ByteReader(parameters, context: "HCI \(C.name)", baseOffset: 3)
        return try C(parameters: &reader)
    }
}

/// An HCI event packet with its parameters still as bytes (§5.4.4).
public struct HCIEventPacket: Hashable, Sendable {
    public var code: UInt8
    public var parameters: [UInt8]

    public init(code: UInt8, parameters: [UInt8]) {
        self.code = code
        self.parameters = parameters
    }

    /// Decodes the payload of an H4 event packet (after the indicator).
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "HCI event")
        code = try reader.u8("event code")
        let length = Int(try reader.u8("parameter length"))
        guard length == reader.remaining else {
            throw reader.error("parameters", .lengthMismatch(declared: length, actual: reader.remaining))
        }
        parameters = reader.rest()
    }

    public var packet: H4Packet {
        var writer = ByteWriter(capacity: parameters.count + 2)
        writer.u8(code)
        writer.u8(UInt8(truncatingIfNeeded: parameters.count))
        writer.append(parameters)
        return H4Packet(type: .event, payload: writer.bytes)
    }
}
