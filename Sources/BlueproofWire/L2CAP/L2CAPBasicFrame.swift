/// An L2CAP B-frame (Core Vol 3, Part A §3.1): a 16-bit length of the information payload,
/// the destination channel id, then the payload. On LE-U every PDU has this basic header;
/// C-frames (signaling) and K-frames (credit-based channels) are B-frames by layout.
public struct L2CAPBasicFrame: Hashable, Sendable, CustomStringConvertible {
    public var channelID: L2CAPChannelID
    /// The information payload; at most 65535 octets can be framed.
    public var payload: [UInt8]

    /// The basic L2CAP header: length and channel id.
    public static let headerLength = 4

    public init(channelID: L2CAPChannelID, payload: [UInt8]) {
        self.channelID = channelID
        self.payload = payload
    }

    /// Decodes one complete PDU (reassembled from ACL fragments); the length field must equal
    /// the octets after the header.
    public init(bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes, context: "L2CAP basic frame")
        let length = Int(try reader.u16("length"))
        channelID = L2CAPChannelID(try reader.u16("channel id"))
        guard length == reader.remaining else {
            throw WireError(offset: 0, context: "L2CAP basic frame: length",
                            reason: .lengthMismatch(declared: length, actual: reader.remaining))
        }
        payload = reader.rest()
    }

    /// The PDU length a header announces, once its first two octets are in: what an ACL
    /// reassembler waits for (header included). Nil with fewer than two octets.
    public static func expectedLength(ofPrefix prefix: [UInt8]) -> Int? {
        guard prefix.count >= 2 else { return nil }
        return headerLength + Int(UInt16(prefix[0]) | UInt16(prefix[1]) << 8)
    }

    /// The wire form; throws when the payload is longer than the length field can count.
    public func encoded() throws(WireError) -> [UInt8] {
        guard payload.count <= Int(UInt16.max) else {
            throw WireError(offset: 0, context: "L2CAP basic frame: length",
                            reason: .invalidValue("\(payload.count) octets, at most 65535 fit"))
        }
        var writer = ByteWriter(capacity: Self.headerLength + payload.count)
        writer.u16(UInt16(payload.count))
        writer.u16(channelID.rawValue)
        writer.append(payload)
        return writer.bytes
    }

    public var description: String { "L2CAP \(channelID) \(hex(payload))" }
}
