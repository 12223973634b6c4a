/// Why a transmitter frame could not be decoded: where in the bytes and what was wrong.
/// See docs/transmitter-wire.md.
public struct FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// Fewer bytes than the field at `offset` needs.
        case truncated(needed: Int)
        /// The version byte is not one this decoder knows.
        case unknownVersion(UInt8)
        /// The kind byte is not one this decoder knows.
        case unknownKind(UInt8)
        /// The length field disagrees with the number of bytes present.
        case lengthMismatch(declared: Int, actual: Int)
        /// A field holds a value the format forbids (text not UTF-8, bad flag combination, ...).
        case invalidField(String)
    }

    /// Byte offset in the frame where decoding stopped.
    public var offset: Int
    public var reason: Reason

    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "frame error at offset \(offset): \(reason)" }
}
