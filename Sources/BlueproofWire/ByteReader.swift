/// A little-endian cursor over bytes that throws ``WireError`` instead of reading past the end.
///
/// Bluetooth multi-octet fields are little-endian (Core Vol 4, Part E §5.2).
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    /// Position of the next byte to read, relative to `bytes`.
    public private(set) var position: Int
    /// Added to `position` in errors, so offsets count from the start of the enclosing unit.
    public let baseOffset: Int
    /// Names the structure being decoded in errors.
    public var context: String

    public init(_ bytes: [UInt8], context: String, baseOffset: Int = 0) {
        self.bytes = bytes
        self.position = 0
        self.baseOffset = baseOffset
        self.context = context
    }

    public var remaining: Int { bytes.count - position }
    public var isAtEnd: Bool { position >= bytes.count }
    /// Offset of the next byte from the start of the enclosing unit.
    public var offset: Int { baseOffset + position }

    /// An error at the current position, for decoders that find an invalid value.
    public func error(_ field: String, _ reason: WireError.Reason) -> WireError {
        WireError(offset: offset, context: "\(context): \(field)", reason: reason)
    }

    private mutating func need(_ count: Int, _ field: String) throws(WireError) {
        guard count >= 0, remaining >= count else {
            throw error(field, .truncated(needed: count, available: remaining))
        }
    }

    public mutating func u8(_ field: String) throws(WireError) -> UInt8 {
        try need(1, field)
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func u16(_ field: String) throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try uint(2, field))
    }

    public mutating func u24(_ field: String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try uint(3, field))
    }

    public mutating func u32(_ field: String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try uint(4, field))
    }

    public mutating func u64(_ field: String) throws(WireError) -> UInt64 {
        try uint(8, field)
    }

    public mutating func i8(_ field: String) throws(WireError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    /// An unsigned little-endian integer of `width` bytes (1...8).
    public mutating func uint(_ width: Int, _ field: String) throws(WireError) -> UInt64 {
        try need(width, field)
        var value: UInt64 = 0
        for index in 0..<width {
            value |= UInt64(bytes[position + index]) << (8 * index)
        }
        position += width
        return value
    }

    public mutating func bytes(_ count: Int, _ field: String) throws(WireError) -> [UInt8] {
        try need(count, field)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[position...])
    }

    /// Ends a fixed-layout block (command or event parameters): bytes left over mean the
    /// packet's length field declares more than the layout holds, which decoders refuse. The
    /// error sits at the first byte left over; `declared` is the block's length, `actual` the
    /// bytes the layout used.
    mutating func requireEnd() throws(WireError) {
        guard isAtEnd else {
            throw error("parameters", .lengthMismatch(declared: bytes.count, actual: position))
        }
    }

    /// A reader over the next `count` bytes, with offsets that continue this reader's.
    public mutating func subReader(_ count: Int, _ field: String) throws(WireError) -> ByteReader {
        let start = offset
        let slice = try bytes(count, field)
        return ByteReader(slice, context: context, baseOffset: start)
    }
}
