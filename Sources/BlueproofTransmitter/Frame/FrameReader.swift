/// Reads big-endian fields from a frame, throwing `FrameError` with the offset on short input.
/// Public so other wire formats (docs/spark-wire.md) read with it too.
public struct FrameReader {
    public let bytes: [UInt8]
    public private(set) var offset: Int
    public let end: Int

    public init(_ bytes: [UInt8], from offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.end = end ?? bytes.count
    }

    public var remaining: Int { end - offset }

    public mutating func take(_ count: Int) throws(FrameError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else { throw FrameError(offset: offset, reason: .truncated(needed: count)) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    public mutating func u8() throws(FrameError) -> UInt8 { try take(1).first! }

    public mutating func u16() throws(FrameError) -> UInt16 {
        try take(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    public mutating func u32() throws(FrameError) -> UInt32 {
        try take(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    public mutating func u64() throws(FrameError) -> UInt64 {
        try take(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    public mutating func userID() throws(FrameError) -> UserID {
        UserID(bytes: try take(16))!
    }

    /// A u8 length then that many bytes of UTF-8.
    public mutating func shortText() throws(FrameError) -> String {
        let start = offset
        let length = Int(try u8())
        guard let text = String(validating: try take(length), as: UTF8.self) else {
            throw FrameError(offset: start, reason: .invalidField("text is not UTF-8"))
        }
        return text
    }
}

/// Appends big-endian fields.
extension Array where Element == UInt8 {
    public mutating func appendU16(_ value: UInt16) { append(UInt8(value >> 8)); append(UInt8(value & 0xFF)) }
    public mutating func appendU32(_ value: UInt32) { for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
    public mutating func appendU64(_ value: UInt64) { for shift in stride(from: 56, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
    /// A u8 length then the UTF-8 bytes; text longer than 255 bytes is cut at a character boundary.
    public mutating func appendShortText(_ text: String) {
        var utf8 = Array(text.utf8)
        if utf8.count > 255 {
            var cut = Substring(text)
            while cut.utf8.count > 255 { cut = cut.dropLast() }
            utf8 = Array(cut.utf8)
        }
        append(UInt8(utf8.count))
        append(contentsOf: utf8)
    }
}
