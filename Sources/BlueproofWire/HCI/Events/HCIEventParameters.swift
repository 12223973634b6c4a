/// The parameters of one HCI event (Core Vol 4, Part E §7.7): its event code, its name, and a
/// codec for the bytes after the event header.
public protocol HCIEventParameters: Sendable, Hashable {
    /// The event code of the packet header (§5.4.4).
    static var code: UInt8 { get }
    /// The name a reader sees, as btmon prints it, e.g. `"Command Complete"`.
    static var name: String { get }
    /// Decodes the parameters; for an LE Meta sub-event, those after the subevent code.
    init(parameters reader: inout ByteReader) throws(WireError)
    /// Encodes the parameters; for an LE Meta sub-event, those after the subevent code.
    func encodeParameters(into writer: inout ByteWriter)
}

/// An LE Meta event (event code 0x3E) sub-event (Core Vol 4, Part E §7.7.65).
public protocol HCILEMetaSubevent: HCIEventParameters {
    /// The Subevent_Code, the first parameter of the LE Meta event.
    static var subeventCode: UInt8 { get }
}

extension HCILEMetaSubevent {
    public static var code: UInt8 { HCILEMetaEvent.code }
}

extension HCIEventParameters {
    /// The event as a packet: for an LE Meta sub-event, the subevent code comes first.
    public var packet: HCIEventPacket {
        var writer = ByteWriter()
        if let subevent = Self.self as? any HCILEMetaSubevent.Type {
            writer.u8(subevent.subeventCode)
        }
        encodeParameters(into: &writer)
        return HCIEventPacket(code: Self.code, parameters: writer.bytes)
    }

    /// Decodes `packet` as this event: the code (and subevent code) must match and the
    /// parameters must be used up exactly. Offsets in errors count from the event code.
    public init(_ packet: HCIEventPacket) throws(WireError) {
        guard packet.code == Self.code else {
            throw WireError(offset: 0, context: "HCI \(Self.name): event code",
                            reason: .invalidValue("0x\(hex(packet.code)), expected 0x\(hex(Self.code))"))
        }
        // The first parameter follows the event code and the parameter length (§5.4.4).
        var reader = ByteReader(packet.parameters, context: "HCI \(Self.name)", baseOffset: 2)
        if let subevent = Self.self as? any HCILEMetaSubevent.Type {
            let start = reader.offset
            let found = try reader.u8("subevent code")
            guard found == subevent.subeventCode else {
                throw WireError(offset: start, context: "HCI \(Self.name): subevent code",
                                reason: .invalidValue("0x\(hex(found)), expected 0x\(hex(subevent.subeventCode))"))
            }
        }
        self = try Self(parameters: &reader)
        try reader.requireEnd()
    }
}
