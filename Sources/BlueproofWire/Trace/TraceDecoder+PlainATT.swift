extension TraceDecoder {
    /// The ATT PDUs ``plainATT(_:sent:)`` takes: Handle Value Notification and
    /// Indication, Write Command (Core Vol 3, Part F §3.4.7.1, §3.4.7.2, §3.4.5.3). None is a
    /// request, so none changes what the connection's ATT state holds.
    static let plainATTOpcodes: Set<UInt8> = [0x1B, 0x1D, 0x52]

    /// The packet boundary and broadcast flags as their descriptions print them, by raw value.
    private static let boundaryTexts = (0..<4).map { Array(HCIACLPacketBoundary(rawValue: $0).description.utf8) }
    private static let broadcastTexts = (0..<4).map { Array(HCIACLBroadcast(rawValue: $0).description.utf8) }
    /// The names of ``plainATTOpcodes`` as UTF-8, indexed by opcode (nil for the others): a
    /// lookup per packet without hashing.
    private static let plainATTNames: [[UInt8]?] = (0...255).map { code in
        plainATTOpcodes.contains(UInt8(code)) ? L2CAPPayloadLayouts.att[UInt8(code)].map { Array($0.name.utf8) } : nil
    }
    /// ` pb=… bc=… dlen=` by the high nibble of the handle's second octet (flags), and
    /// ` cid=0x0004 layer=att pdu=… attribute=0x` by opcode: a text line in fewer copies.
    private static let plainFlagsTexts: [[UInt8]] = (0..<16).map { flags in
        Array(" pb=".utf8) + boundaryTexts[flags & 3] + Array(" bc=".utf8) + broadcastTexts[flags >> 2] + Array(" dlen=".utf8)
    }
    private static let plainPDUTexts: [[UInt8]] = plainATTNames.map { name in
        name.map { Array(" cid=0x0004 layer=att pdu=".utf8) + $0 + Array(" attribute=0x".utf8) } ?? []
    }

    /// The bulk of a long capture, decoded without a `String`: when `packet` is an ACL packet
    /// that holds one whole L2CAP frame on the ATT channel (Vol 3, Part A §3.1) carrying a
    /// notification, an indication or a write command, on a connection whose ATT state is
    /// known and names nothing about that attribute, learns what ``describe(_:sent:)`` would
    /// and returns the packet's fields, which are exactly those ``describe(_:sent:)`` gives.
    /// Otherwise returns nil and changes nothing: describe the packet then.
    public mutating func plainATT(_ packet: H4Packet, sent: Bool) -> PlainATT? {
        guard packet.type == .acl else { return nil }
        let bytes = packet.payload
        // ACL header (4), L2CAP header (4), opcode and attribute handle (3).
        guard bytes.count >= 11, Int(bytes[2]) | Int(bytes[3]) << 8 == bytes.count - 4,
              Int(bytes[4]) | Int(bytes[5]) << 8 == bytes.count - 8, bytes[6] == 0x04, bytes[7] == 0x00,
              Self.plainATTNames[Int(bytes[8])] != nil else { return nil }
        let boundary = (bytes[1] >> 4) & 0b11
        guard HCIACLPacketBoundary(rawValue: boundary).startsPDU else { return nil }
        let handle = (UInt16(bytes[0]) | UInt16(bytes[1]) << 8) & 0x0FFF
        let attribute = UInt16(bytes[9]) | UInt16(bytes[10]) << 8
        guard let index = connections.index(forKey: handle), connections.values[index].namesNothing(about: attribute) else {
            return nil
        }
        // A starting fragment ends any frame being rebuilt on its way.
        if !partial.isEmpty { partial[Way(handle: handle, sent: sent)] = nil }
        return PlainATT(payload: bytes)
    }

    /// What ``plainATT(_:sent:)`` found: the fields of ``describe(_:sent:)`` (`handle`, `pb`,
    /// `bc`, `dlen`, `l2cap_len`, `cid`, `layer`, `pdu`, `attribute`, `value` when not empty),
    /// each as UTF-8.
    public struct PlainATT {
        let payload: [UInt8]

        /// The PDU's name, the packet boundary and broadcast flags, as UTF-8.
        public var pduName: [UInt8] { TraceDecoder.plainATTNames[Int(payload[8])] ?? [] }
        public var boundary: [UInt8] { TraceDecoder.boundaryTexts[Int(payload[1] >> 4) & 3] }
        public var broadcast: [UInt8] { TraceDecoder.broadcastTexts[Int(payload[1] >> 6)] }

        /// The connection handle.
        public var handle: Int { Int(payload[0]) | Int(payload[1] & 0x0F) << 8 }
        public var dataLength: Int { payload.count - 4 }
        public var l2capLength: Int { payload.count - 8 }
        public var hasValue: Bool { payload.count > 11 }

        /// The attribute handle as its 4 hexadecimal digits.
        public func appendAttribute(to out: inout [UInt8]) {
            out.appendHex(byte: payload[10])
            out.appendHex(byte: payload[9])
        }

        /// The value in hexadecimal.
        public func appendValue(to out: inout [UInt8]) {
            out.appendHex(payload[11...])
        }

        /// ` ACL Data handle=… value=…`: the description's name and fields as `name=value` words.
        public func appendText(to out: inout [UInt8]) {
            out.append(static: " ACL Data handle=")
            out.appendDecimal(handle)
            out += TraceDecoder.plainFlagsTexts[Int(payload[1] >> 4)]
            out.appendDecimal(dataLength)
            out.append(static: " l2cap_len=")
            out.appendDecimal(l2capLength)
            out += TraceDecoder.plainPDUTexts[Int(payload[8])]
            appendAttribute(to: &out)
            if hasValue {
                out.append(static: " value=")
                appendValue(to: &out)
            }
        }
    }
}
