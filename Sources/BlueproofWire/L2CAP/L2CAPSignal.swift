/// One LE signaling command (Core Vol 3, Part A §4): code, identifier, 16-bit data length,
/// data. An LE signaling packet (C-frame on CID 0x0005) carries exactly one command, so
/// decoding refuses octets after it.
public struct L2CAPSignal: Hashable, Sendable, CustomStringConvertible {
    /// Matches a response to its request; 0x00 is never valid (§4).
    public var identifier: UInt8
    public var command: L2CAPSignalCommand

    /// Identifiers in use: 1...255.
    public static let identifiers: ClosedRange<UInt8> = 1...255
    /// The command header: code, identifier, length.
    public static let headerLength = 4

    public init(identifier: UInt8, command: L2CAPSignalCommand) {
        self.identifier = identifier
        self.command = command
    }

    public var code: L2CAPSignalCode { command.code }

    /// Decodes the information payload of an LE signaling C-frame. Throws when the header is
    /// truncated, the identifier is 0x00, the length field disagrees with the octets present
    /// (fewer: truncated; more: a second command, which LE does not allow), or the data does
    /// not fit the command's layout.
    public init(payload: [UInt8]) throws(WireError) {
        var reader = ByteReader(payload, context: "L2CAP signal")
        let code = L2CAPSignalCode(rawValue: try reader.u8("code"))
        let identifierOffset = reader.offset
        identifier = try reader.u8("identifier")
        guard identifier != 0 else {
            throw WireError(offset: identifierOffset, context: "L2CAP signal: identifier",
                            reason: .invalidValue("0x00 is never a valid identifier"))
        }
        let length = Int(try reader.u16("length"))
        guard length == reader.remaining else {
            throw WireError(offset: 2, context: "L2CAP signal: length",
                            reason: .lengthMismatch(declared: length, actual: reader.remaining))
        }
        var data = try reader.subReader(length, "data")
        data.context = "L2CAP \(code)"
        command = try L2CAPSignalCommand(code: code, data: &data)
    }

    /// The C-frame information payload.
    public var encoded: [UInt8] {
        var body = ByteWriter()
        command.encode(into: &body)
        var writer = ByteWriter(capacity: Self.headerLength + body.bytes.count)
        writer.u8(code.rawValue)
        writer.u8(identifier)
        writer.u16(UInt16(truncatingIfNeeded: body.bytes.count))
        writer.append(body.bytes)
        return writer.bytes
    }

    /// The whole C-frame on the LE signaling channel.
    public var frame: L2CAPBasicFrame { L2CAPBasicFrame(channelID: .leSignaling, payload: encoded) }

    public var description: String { "\(code) id \(identifier) \(command)" }
}
