/// A typed decoding failure: where in the input it happened, in what structure, and why.
///
/// Wire decoders never trap on bad input; they throw this instead.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the input was refused.
    public enum Reason: Hashable, Sendable {
        /// The input ended before a field of `needed` bytes; `available` bytes were left.
        case truncated(needed: Int, available: Int)
        /// A length field disagrees with the bytes that follow it.
        case lengthMismatch(declared: Int, actual: Int)
        /// A field holds a value the specification does not allow.
        case invalidValue(String)
        /// An H4 packet indicator that is none of command, ACL, SCO, event or ISO.
        case unknownPacketType(UInt8)
    }

    /// Byte offset of the offending field, counted from the start of the decoded unit.
    public var offset: Int
    /// The structure and field being decoded, e.g. `"LE Advertising Report: data length"`.
    public var context: String
    public var reason: Reason

    public init(offset: Int, context: String, reason: Reason) {
        self.offset = offset
        self.context = context
        self.reason = reason
    }

    public var description: String {
        let why: String
        switch reason {
        case let .truncated(needed, available):
            why = "truncated: needed \(needed) byte(s), \(available) left"
        case let .lengthMismatch(declared, actual):
            why = "length field says \(declared), \(actual) byte(s) present"
        case let .invalidValue(detail):
            why = "invalid value: \(detail)"
        case let .unknownPacketType(value):
            why = "unknown H4 packet type 0x\(hex(value))"
        }
        return "\(context) at offset \(offset): \(why)"
    }
}
