/// One HCI packet with its H4 indicator: the unit that crosses the host/controller boundary.
public struct H4Packet: Hashable, Sendable {
    public var type: H4PacketType
    /// The HCI packet after the indicator: its header and its parameters or data.
    public var payload: [UInt8]

    public init(type: H4PacketType, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }

    /// The packet as framed on an H4 link: indicator byte, then the payload.
    public var h4Bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(payload.count + 1)
        out.append(type.rawValue)
        out.append(contentsOf: payload)
        return out
    }

    /// Decodes exactly one complete H4 frame; the declared length must match the bytes.
    public init(h4Bytes bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes, context: "H4 packet")
        let type = H4PacketType(rawValue: try reader.u8("packet type"))
        guard let header = type.header else {
            throw WireError(offset: 0, context: "H4 packet", reason: .unknownPacketType(type.rawValue))
        }
        let payload = reader.rest()
        guard payload.count >= header.size else {
            throw WireError(offset: 1, context: "H4 \(type) header",
                            reason: .truncated(needed: header.size, available: payload.count))
        }
        let declared = H4Packet.declaredLength(payload, header)
        guard declared == payload.count - header.size else {
            throw WireError(offset: 1 + header.lengthOffset, context: "H4 \(type) length",
                            reason: .lengthMismatch(declared: declared, actual: payload.count - header.size))
        }
        self.init(type: type, payload: payload)
    }

    static func declaredLength(
        _ bytes: some RandomAccessCollection<UInt8>,
        _ header: (size: Int, lengthOffset: Int, lengthWidth: Int, lengthMask: Int)
    ) -> Int {
        var value = 0
        let start = bytes.index(bytes.startIndex, offsetBy: header.lengthOffset)
        for index in 0..<header.lengthWidth {
            value |= Int(bytes[bytes.index(start, offsetBy: index)]) << (8 * index)
        }
        return value & header.lengthMask
    }
}
