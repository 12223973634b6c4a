/// One parameter of a command, return, event or upper-layer PDU (L2CAP signalling, SMP, ATT)
/// that `inspect` describes from a layout table rather than a typed codec: its snake_case
/// name and how its octets read (little-endian, Core Vol 4, Part E §5.2).
struct HCIParameter: Sendable {
    enum Kind: Sendable {
        /// One octet, decimal.
        case u8
        /// Two octets, decimal.
        case u16
        /// Four octets, decimal.
        case u32
        /// One octet, signed, printed in dBm.
        case dBm
        /// An unsigned value of `width` octets, hexadecimal.
        case hex(width: Int)
        /// A Connection_Handle: 12 significant bits, decimal.
        case handle
        /// An HCI error code.
        case status
        /// 0x00 false, 0x01 true; other values printed in hexadecimal.
        case boolean
        /// A BD_ADDR, most significant octet first.
        case address
        /// An LE address type (§7.8.12).
        case addressType
        /// An LE PHY (§7.8.49).
        case phy
        /// `count` octets as hexadecimal, in wire order (keys, random numbers, channel maps).
        case octets(count: Int)
        /// A UTF-8 name of `count` octets, ended by the first NUL (§7.3.12).
        case name(count: Int)
        /// Whatever octets remain, as hexadecimal; empty when none.
        case rest
        /// The remaining 2 or 16 octets as a UUID (Core Vol 3, Part B §2.5.1).
        case uuid
        /// An ATT opcode (Vol 3, Part F §3.4.8).
        case attOpcode
        /// An ATT error code (Vol 3, Part F §3.4.1.1).
        case attError
        /// An SMP Pairing Failed reason (Vol 3, Part H §3.5.5).
        case smpReason
    }

    let name: String
    let kind: Kind

    init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    static let status = HCIParameter("status", .status)
    static let handle = HCIParameter("handle", .handle)
    static let address = HCIParameter("address", .address)
    static let addressType = HCIParameter("address_type", .addressType)
    static let reason = HCIParameter("reason", .status)
    /// The connection parameters a peer asks for (Core Vol 4, Part E §7.7.65.6; Vol 3, Part A §4.20).
    static let connectionParameters: [HCIParameter] = hex16s("interval_min", "interval_max")
        + [.u16("latency"), .hex16("supervision_timeout")]
    static func u8(_ name: String) -> Self { .init(name, .u8) }
    static func u16(_ name: String) -> Self { .init(name, .u16) }
    static func hex8(_ name: String) -> Self { .init(name, .hex(width: 1)) }
    static func hex16(_ name: String) -> Self { .init(name, .hex(width: 2)) }
    static func hex64(_ name: String) -> Self { .init(name, .hex(width: 8)) }
    static func boolean(_ name: String) -> Self { .init(name, .boolean) }
    static func octets(_ name: String, _ count: Int) -> Self { .init(name, .octets(count: count)) }
    static func rest(_ name: String) -> Self { .init(name, .rest) }
    static func hex16s(_ names: String...) -> [Self] { names.map { .init($0, .hex(width: 2)) } }

    /// Reads the parameters of `layout` from `reader` as fields; throws when the octets end
    /// before the layout does. Octets after the layout stay in the reader.
    static func fields(_ layout: [HCIParameter], from reader: inout ByteReader) throws(WireError)
        -> [HCIPacketDescription.Field] {
        var fields: [HCIPacketDescription.Field] = []
        fields.reserveCapacity(layout.count)
        for parameter in layout {
            if let value = try parameter.read(&reader) { fields.append(.init(parameter.name, value)) }
        }
        return fields
    }

    /// Describes `bytes` as the parameters of `layout` under `name`; octets past the layout are
    /// listed as `extra`, and octets short of it make the description malformed, with the raw
    /// parameters shown. `baseOffset` places the first octet in errors.
    static func describe(_ name: String, _ layout: [HCIParameter], _ bytes: [UInt8], baseOffset: Int) -> HCIPacketDescription {
        var reader = ByteReader(bytes, context: name, baseOffset: baseOffset)
        do throws(WireError) {
            let fields = try fields(layout, from: &reader)
            let extra = reader.rest()
            return HCIPacketDescription(name: name, fields: extra.isEmpty ? fields : fields + [.init("extra", hex(extra))])
        } catch {
            return HCIPacketDescription(name: name, fields: [.init("parameters", hex(bytes))], malformed: error)
        }
    }

    /// The value's text; nil for an empty `rest`.
    private func read(_ reader: inout ByteReader) throws(WireError) -> String? {
        switch kind {
        case .u8: return "\(try reader.u8(name))"
        case .u16: return "\(try reader.u16(name))"
        case .u32: return "\(try reader.u32(name))"
        case .dBm: return "\(try reader.i8(name)) dBm"
        case let .hex(width): return "0x" + hexNumber(try reader.uint(width, name), width: width)
        case .handle: return "\(try reader.u16(name) & 0x0FFF)"
        case .status: return HCIStatus(rawValue: try reader.u8(name)).description
        case .boolean:
            let value = try reader.u8(name)
            return value <= 1 ? (value == 1 ? "true" : "false") : "0x\(hex(value))"
        case .address: return try BDAddress.read(&reader, name).description
        case .addressType: return LEAddressType(rawValue: try reader.u8(name)).description
        case .phy: return LEPHY(rawValue: try reader.u8(name)).description
        case let .octets(count): return hex(try reader.bytes(count, name))
        case let .name(count):
            let octets = try reader.bytes(count, name).prefix { $0 != 0 }
            return "\"\(String(decoding: octets, as: UTF8.self))\""
        case .rest:
            let octets = reader.rest()
            return octets.isEmpty ? nil : hex(octets)
        case .uuid:
            let octets = reader.rest()
            guard octets.count == 2 || octets.count == 16 else {
                throw reader.error(name, .invalidValue("\(octets.count) octets, a UUID has 2 or 16"))
            }
            return try BluetoothUUID(littleEndian: octets).description
        case .attOpcode: return ATTOpcode(rawValue: try reader.u8(name)).description
        case .attError: return ATTErrorCode(rawValue: try reader.u8(name)).description
        case .smpReason: return SMPPairingFailedReason(rawValue: try reader.u8(name)).description
        }
    }
}

/// `value` as `width` octets of hexadecimal, most significant first.
private func hexNumber(_ value: UInt64, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width * 2 - digits.count)) + digits
}
