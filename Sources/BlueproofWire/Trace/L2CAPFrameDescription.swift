/// What `inspect` adds to an ACL packet that carries a whole L2CAP basic frame: the layer
/// (`l2cap` for signalling, `smp`, `att`), the PDU's name as `pdu`, then its parameters
/// (Core Vol 3, Part A §3.1 for the frame; the layouts in ``L2CAPPayloadLayouts``).
enum L2CAPFrameDescription {
    /// Offset of the L2CAP information payload in an H4 ACL payload: the ACL header (4) and
    /// the basic L2CAP header (4).
    static let payloadOffset = 8

    /// The fields of the frame's payload on `cid`; nil for a channel this table does not
    /// decode (dynamic channels, whose meaning depends on the connection's signalling).
    static func describe(cid: UInt16, payload: [UInt8]) -> HCIPacketDescription? {
        switch cid {
        case 0x0001: signals(payload, layer: "l2cap", several: true)
        case 0x0005: signals(payload, layer: "l2cap", several: false)
        case 0x0004: coded(payload, layer: "att", L2CAPPayloadLayouts.att, unknown: "ATT")
        case 0x0006, 0x0007: coded(payload, layer: "smp", L2CAPPayloadLayouts.smp, unknown: "SMP")
        default: nil
        }
    }

    /// One PDU whose first octet is its code.
    private static func coded(_ payload: [UInt8], layer: String, _ table: [UInt8: HCIEventLayout],
                              unknown: String) -> HCIPacketDescription {
        guard let code = payload.first else {
            return HCIPacketDescription(name: layer, fields: [.init("layer", layer)], malformed: WireError(
                offset: payloadOffset, context: "\(unknown): code", reason: .truncated(needed: 1, available: 0)))
        }
        let body = Array(payload.dropFirst())
        guard let layout = table[code] else {
            var fields: [HCIPacketDescription.Field] = [.init("layer", layer), .init("pdu", "\(unknown) 0x\(hex(code))")]
            if !body.isEmpty { fields.append(.init("data", hex(body))) }
            return HCIPacketDescription(name: layer, fields: fields)
        }
        var description = layout.describe(body, baseOffset: payloadOffset + 1)
        description.fields.insert(contentsOf: [.init("layer", layer), .init("pdu", layout.name)], at: 0)
        return description
    }

    /// Signalling commands: code, identifier, length, data (Vol 3, Part A §4). The BR/EDR
    /// channel may carry several in one frame; their fields are indexed then.
    private static func signals(_ payload: [UInt8], layer: String, several: Bool) -> HCIPacketDescription {
        var reader = ByteReader(payload, context: "L2CAP signalling", baseOffset: payloadOffset)
        var commands: [(name: String, fields: [HCIPacketDescription.Field])] = []
        var malformed: WireError?
        repeat {
            do throws(WireError) {
                let code = try reader.u8("code")
                let identifier = try reader.u8("identifier")
                let length = Int(try reader.u16("length"))
                let dataOffset = reader.offset
                let data = try reader.bytes(length, "data")
                let layout = L2CAPPayloadLayouts.signals[code]
                let described = layout?.describe(data, baseOffset: dataOffset)
                    ?? HCIPacketDescription(name: "Signal 0x\(hex(code))", fields: data.isEmpty ? [] : [.init("data", hex(data))])
                commands.append((described.name, [.init("id", "\(identifier)")] + described.fields))
                if let error = described.malformed { malformed = error }
            } catch {
                malformed = error
            }
        } while several && malformed == nil && !reader.isAtEnd
        if malformed == nil && !reader.isAtEnd {
            malformed = reader.error("end", .invalidValue("\(reader.remaining) octet(s) after the command"))
        }
        var fields: [HCIPacketDescription.Field] = [.init("layer", layer),
                                                    .init("pdu", commands.map(\.name).joined(separator: ", "))]
        for (index, command) in commands.enumerated() {
            fields += command.fields.map { .init(indexedName($0.name, index, of: commands.count), $0.value) }
        }
        return HCIPacketDescription(name: layer, fields: fields, malformed: malformed)
    }
}
