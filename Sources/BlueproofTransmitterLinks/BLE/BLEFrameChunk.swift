/// One piece of a transmitter frame on the frame characteristic (docs/transmitter-links.md,
/// "Chunks"). Little-endian header:
///
/// | octets | field |
/// |---|---|
/// | 1 | flags: 0x01 first, 0x02 last, 0x80 hello (the sender's user id, no frame), 0x40 adopt (the sender keeps the connection, no frame) |
/// | 2 | frame sequence, per direction of one connection, wrapping |
/// | 2 | chunk index within the frame, from 0 |
/// | 4 | first chunk only: the frame's total length |
///
/// then frame bytes. A frame of 0 bytes is one chunk, first and last, with an empty body.
public struct BLEFrameChunk: Hashable, Sendable {
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let first = Flags(rawValue: 0x01)
        public static let last = Flags(rawValue: 0x02)
        public static let hello = Flags(rawValue: 0x80)
        public static let adopt = Flags(rawValue: 0x40)
    }

    public var flags: Flags
    public var sequence: UInt16
    public var index: UInt16
    /// The whole frame's length; present on first chunks only.
    public var totalLength: UInt32?
    public var body: [UInt8]

    public init(flags: Flags, sequence: UInt16, index: UInt16, totalLength: UInt32?, body: [UInt8]) {
        self.flags = flags
        self.sequence = sequence
        self.index = index
        self.totalLength = totalLength
        self.body = body
    }

    /// Header octets of every chunk.
    public static let headerLength = 5
    /// The total length field a first chunk adds.
    public static let totalLengthField = 4
    /// Frames up to this size by default: the BLE binary limit (122,880 bytes,
    /// bridgefy-ios-sdk-readme.md) with room for the transmitter's own header.
    public static let defaultFrameLimit = 256 * 1024
    /// The most an attribute value holds (Core Vol 3, Part F §3.2.9), so the most one chunk holds.
    public static let attributeValueLimit = 512

    /// Chunk size for an ATT_MTU: ATT_MTU - 3 (the opcode and handle of a Write Command or
    /// Handle Value Notification), at most the attribute value limit.
    public static func chunkSize(forATTMTU mtu: Int) -> Int { min(mtu - 3, attributeValueLimit) }

    /// The wire form.
    public var bytes: [UInt8] {
        var out: [UInt8] = [flags.rawValue, UInt8(sequence & 0xFF), UInt8(sequence >> 8),
                            UInt8(index & 0xFF), UInt8(index >> 8)]
        if let totalLength {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((totalLength >> UInt32(shift)) & 0xFF)) }
        }
        return out + body
    }

    /// Reads the wire form; first chunks must carry the total length.
    public init(bytes: [UInt8]) throws(BLEChunkError) {
        guard bytes.count >= Self.headerLength else { throw .malformed(length: bytes.count) }
        flags = Flags(rawValue: bytes[0])
        sequence = UInt16(bytes[1]) | UInt16(bytes[2]) << 8
        index = UInt16(bytes[3]) | UInt16(bytes[4]) << 8
        var offset = Self.headerLength
        if flags.contains(.first) {
            guard bytes.count >= offset + Self.totalLengthField else { throw .malformed(length: bytes.count) }
            totalLength = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
            offset += Self.totalLengthField
        } else {
            totalLength = nil
        }
        body = Array(bytes[offset...])
    }
}
