import BlueproofTransmitter

/// Why a Spark frame could not be encoded or decoded: where, what, and the limit it broke
/// (docs/spark-wire.md "Errors"). Decoding never traps; every refusal is one of these.
public struct SparkWireError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// Fewer bytes than the field at `offset` needs.
        case truncated(needed: Int)
        /// More bytes than `SparkLimits.maxFrameBytes`.
        case frameTooLarge(bytes: Int, limit: Int)
        /// A version other than `SparkLimits.version`.
        case unknownVersion(UInt8)
        /// A kind byte not in the table.
        case unknownKind(UInt8)
        /// The body length disagrees with the bytes present.
        case lengthMismatch(declared: Int, actual: Int)
        /// Offer metadata over `SparkLimits.maxMetadataBytes`.
        case metadataTooLarge(bytes: Int, limit: Int)
        /// A name or description over `SparkLimits.maxNameBytes`.
        case nameTooLong(bytes: Int, limit: Int)
        /// A transfer size over `SparkLimits.maxDataBytes` (data) or `maxFileBytes` (file).
        case sizeOverLimit(size: UInt64, limit: UInt64)
        /// A field holds a value the format forbids (text not UTF-8, unknown code, empty block, ...).
        case invalidField(String)
    }

    /// Byte offset where decoding stopped (0 for encoding errors).
    public var offset: Int
    public var reason: Reason
    /// The frame's header when it was read before the error: lets a receiver answer the
    /// connection it names (an offer it cannot read is declined, not left hanging).
    public var header: SparkHeader?

    public init(offset: Int, reason: Reason, header: SparkHeader? = nil) {
        self.offset = offset
        self.reason = reason
        self.header = header
    }

    init(_ error: FrameError, header: SparkHeader?) {
        let reason: Reason = switch error.reason {
        case .truncated(let needed): .truncated(needed: needed)
        case .unknownVersion(let version): .unknownVersion(version)
        case .unknownKind(let kind): .unknownKind(kind)
        case .lengthMismatch(let declared, let actual): .lengthMismatch(declared: declared, actual: actual)
        case .invalidField(let what): .invalidField(what)
        }
        self.init(offset: error.offset, reason: reason, header: header)
    }

    public var description: String { "spark frame error at offset \(offset): \(reason)" }
}
