/// The parameters of a Find Information Response (Core Vol 3, Part F §3.4.3.2): a format and
/// handle-UUID pairs that all carry UUIDs of that size.
public struct ATTFindInformationResponse: Hashable, Sendable {
    public let format: ATTFindInformationFormat
    public let entries: [ATTFindInformationEntry]

    /// Pairs with the 16-bit format when every UUID has a 16-bit alias, the 128-bit format
    /// otherwise, so any list encodes consistently.
    public init(entries: [ATTFindInformationEntry]) {
        let short = entries.allSatisfy { $0.type.uuid16 != nil }
        self.init(format: short ? .uuid16 : .uuid128, entries: entries)
    }

    /// The 128-bit format holds any UUID; the 16-bit one only aliases, so asking for it with
    /// a UUID that has none falls back to 128 bits.
    public init(format: ATTFindInformationFormat, entries: [ATTFindInformationEntry]) {
        let fits = format == .uuid128 || entries.allSatisfy { $0.type.uuid16 != nil }
        self.format = fits ? format : .uuid128
        self.entries = entries
    }

    func encode(into writer: inout ByteWriter) {
        writer.u8(format.rawValue)
        for entry in entries {
            writer.u16(entry.handle)
            writer.append(format == .uuid16 ? entry.type.littleEndianBytes : entry.type.littleEndian128)
        }
    }

    init(reading reader: inout ByteReader) throws(WireError) {
        let rawFormat = try reader.u8("format")
        guard let format = ATTFindInformationFormat(rawValue: rawFormat) else {
            throw WireError(offset: reader.offset - 1, context: "\(reader.context): format",
                            reason: .invalidValue("format 0x\(hex(rawFormat)) is neither 0x01 (16-bit) nor 0x02 (128-bit)"))
        }
        let pairLength = 2 + format.uuidLength
        guard reader.remaining > 0, reader.remaining.isMultiple(of: pairLength) else {
            throw reader.error("information data", .invalidValue(
                "\(reader.remaining) octet(s) is not a non-zero multiple of the \(pairLength)-octet pair"))
        }
        var entries: [ATTFindInformationEntry] = []
        while !reader.isAtEnd {
            let handle = try reader.u16("handle")
            let uuid = try BluetoothUUID(littleEndian: try reader.bytes(format.uuidLength, "UUID"))
            entries.append(ATTFindInformationEntry(handle: handle, type: uuid))
        }
        self.init(format: format, entries: entries)
    }
}
