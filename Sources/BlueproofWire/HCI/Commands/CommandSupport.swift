/// Something that lists its decoded values as named fields, in wire order, for
/// `blueproof inspect` and for logs.
public protocol HCIFieldListing {
    /// The fields in wire order, named after the specification parameters in snake_case
    /// (`peer_address`), as events name theirs; a connection handle is `handle` (issue 16).
    var fieldList: [HCIPacketDescription.Field] { get }
}

/// A command without parameters (Reset, the Read commands, LE Create Connection Cancel, ...).
public protocol HCIParameterlessCommand: HCICommand, HCIFieldListing {
    init()
}

extension HCIParameterlessCommand {
    public init(parameters reader: inout ByteReader) throws(WireError) {
        try reader.requireEnd()
        self.init()
    }

    public func encodeParameters(into writer: inout ByteWriter) {}
    public var fieldList: [HCIPacketDescription.Field] { [] }
}

extension ByteReader {
    /// A one-octet boolean (0x00 false, 0x01 true); other values are refused.
    mutating func booleanOctet(_ field: String) throws(WireError) -> Bool {
        let start = offset
        let value = try u8(field)
        switch value {
        case 0x00: return false
        case 0x01: return true
        default:
            throw WireError(offset: start, context: "\(context): \(field)",
                            reason: .invalidValue("0x\(hex(value)) is neither 0x00 nor 0x01"))
        }
    }

    mutating func hciUnit<U: HCIUnitDuration>(_ type: U.Type, _ field: String) throws(WireError) -> U {
        U(rawValue: try u16(field))
    }
}

extension ByteWriter {
    mutating func booleanOctet(_ value: Bool) { u8(value ? 0x01 : 0x00) }
    mutating func hciUnit<U: HCIUnitDuration>(_ value: U) { u16(value.rawValue) }
}

extension HCIPacketDescription.Field {
    static func boolean(_ name: String, _ value: Bool) -> Self { .init(name, value ? "true" : "false") }
    static func hexadecimal(_ name: String, _ value: UInt16) -> Self { .init(name, "0x\(hex(value))") }
    static func decimal(_ name: String, _ value: some BinaryInteger) -> Self { .init(name, "\(value)") }
    static func describing(_ name: String, _ value: some CustomStringConvertible) -> Self { .init(name, value.description) }
}

extension HCIStatusReturn: HCIFieldListing {
    public var fieldList: [HCIPacketDescription.Field] { [.describing("status", status)] }
}

/// A one-octet value from a set the specification may extend, printed as its name and value.
func openSetText(_ name: String?, _ rawValue: UInt8) -> String {
    // Concatenated, not interpolated: `inspect` makes one for every ACL packet.
    guard let name else { return "0x" + hex(rawValue) }
    return name + " (0x" + hex(rawValue) + ")"
}

/// A bit mask as its value and the names of its bits, e.g. `0x0013 (connectable,scannable,legacy)`;
/// bits without a name show as `bitN`.
func flagText<T: FixedWidthInteger>(_ rawValue: T, _ names: [(T, String)]) -> String {
    let parts = flagNames(rawValue, names)
    return "0x\(hex(rawValue)) (\(parts.isEmpty ? "none" : parts.joined(separator: ",")))"
}

/// The names of the bits set in `rawValue`, then `bitN` for each set bit without a name.
func flagNames<T: FixedWidthInteger>(_ rawValue: T, _ names: [(T, String)]) -> [String] {
    var parts: [String] = []
    var rest = rawValue
    for (bit, name) in names where rawValue & bit == bit && bit != 0 {
        parts.append(name)
        rest &= ~bit
    }
    for bit in 0..<T.bitWidth where rest & (T(1) << bit) != 0 {
        parts.append("bit\(bit)")
    }
    return parts
}

/// `name` for a single entry, `name[index]` when a list holds several.
func indexedName(_ name: String, _ index: Int, of count: Int) -> String {
    count > 1 ? "\(name)[\(index)]" : name
}
