/// The parameters of a Read By Group Type Response (Core Vol 3, Part F §3.4.4.10): a length
/// octet and a list of (handle, end group handle, value) entries of exactly that length each.
public struct ATTReadByGroupTypeResponse: Hashable, Sendable {
    /// The longest value an entry can carry: the length octet counts both handles too.
    public static let maximumValueLength = 251

    public let entries: [ATTGroupData]

    /// Keeps the leading run of entries whose values are as long as the first one's, as a
    /// server stops at the first value of another length (§3.4.4.9); values longer than
    /// ``maximumValueLength`` are cut to it.
    public init(entries: [ATTGroupData]) {
        let clipped = entries.map {
            ATTGroupData(attributeHandle: $0.attributeHandle, endGroupHandle: $0.endGroupHandle,
                         value: Array($0.value.prefix(Self.maximumValueLength)))
        }
        let length = clipped.first?.value.count ?? 0
        self.entries = Array(clipped.prefix { $0.value.count == length })
    }

    /// The length octet: both handles plus the value.
    public var length: Int { 4 + (entries.first?.value.count ?? 0) }

    func encode(into writer: inout ByteWriter) {
        writer.u8(UInt8(truncatingIfNeeded: length))
        for entry in entries {
            writer.u16(entry.attributeHandle)
            writer.u16(entry.endGroupHandle)
            writer.append(entry.value)
        }
    }

    init(reading reader: inout ByteReader) throws(WireError) {
        let length = Int(try reader.u8("length"))
        guard length >= 4 else {
            throw WireError(offset: reader.offset - 1, context: "\(reader.context): length",
                            reason: .invalidValue("an entry of \(length) octet(s) cannot hold two handles"))
        }
        guard reader.remaining > 0, reader.remaining.isMultiple(of: length) else {
            throw reader.error("attribute data list", .invalidValue(
                "\(reader.remaining) octet(s) is not a non-zero multiple of the \(length)-octet entry"))
        }
        var entries: [ATTGroupData] = []
        while !reader.isAtEnd {
            let handle = try reader.u16("attribute handle")
            let end = try reader.u16("end group handle")
            entries.append(ATTGroupData(attributeHandle: handle, endGroupHandle: end,
                                        value: try reader.bytes(length - 4, "attribute value")))
        }
        self.entries = entries
    }
}
