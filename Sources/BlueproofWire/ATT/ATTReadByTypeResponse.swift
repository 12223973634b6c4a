/// The parameters of a Read By Type Response (Core Vol 3, Part F §3.4.4.2): a length octet
/// and a list of handle-value pairs of exactly that length each.
public struct ATTReadByTypeResponse: Hashable, Sendable {
    /// The longest value a pair can carry: the length octet counts the handle too.
    public static let maximumValueLength = 253

    public let entries: [ATTHandleValue]

    /// Keeps the leading run of pairs whose values are as long as the first one's, as a
    /// server stops at the first value of another length (§3.4.4.1); values longer than
    /// ``maximumValueLength`` are cut to it.
    public init(entries: [ATTHandleValue]) {
        let clipped = entries.map { ATTHandleValue(handle: $0.handle, value: Array($0.value.prefix(Self.maximumValueLength))) }
        let length = clipped.first?.value.count ?? 0
        self.entries = Array(clipped.prefix { $0.value.count == length })
    }

    /// The length octet: handle plus value.
    public var length: Int { 2 + (entries.first?.value.count ?? 0) }

    func encode(into writer: inout ByteWriter) {
        writer.u8(UInt8(truncatingIfNeeded: length))
        for entry in entries {
            writer.u16(entry.handle)
            writer.append(entry.value)
        }
    }

    init(reading reader: inout ByteReader) throws(WireError) {
        let length = Int(try reader.u8("length"))
        guard length >= 2 else {
            throw WireError(offset: reader.offset - 1, context: "\(reader.context): length",
                            reason: .invalidValue("a pair of \(length) octet(s) cannot hold a handle"))
        }
        guard reader.remaining > 0, reader.remaining.isMultiple(of: length) else {
            throw reader.error("attribute data list", .invalidValue(
                "\(reader.remaining) octet(s) is not a non-zero multiple of the \(length)-octet pair"))
        }
        var entries: [ATTHandleValue] = []
        while !reader.isAtEnd {
            let handle = try reader.u16("attribute handle")
            entries.append(ATTHandleValue(handle: handle, value: try reader.bytes(length - 2, "attribute value")))
        }
        self.entries = entries
    }
}
