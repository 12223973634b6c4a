/// The field rules both the encoder and the decoder apply, so nothing is sent that the
/// other side would refuse (docs/spark-wire.md "Bounds").
enum SparkRules {
    /// Metadata within `SparkLimits.maxMetadataBytes` of UTF-8.
    static func metadata(_ text: String) -> SparkWireError.Reason? {
        let bytes = text.utf8.count
        return bytes > SparkLimits.maxMetadataBytes ? .metadataTooLarge(bytes: bytes, limit: SparkLimits.maxMetadataBytes) : nil
    }

    /// A description or name within `SparkLimits.maxNameBytes`; a file name must also be one
    /// path component (not empty, no `/`, no NUL, not `.` or `..`) so a receiver can never be
    /// made to write outside its cache folder.
    static func name(_ text: String, isFileName: Bool) -> SparkWireError.Reason? {
        let bytes = text.utf8.count
        if bytes > SparkLimits.maxNameBytes { return .nameTooLong(bytes: bytes, limit: SparkLimits.maxNameBytes) }
        if isFileName && (text.isEmpty || text == "." || text == ".." || text.utf8.contains(0x2F) || text.utf8.contains(0)) {
            return .invalidField("file name is not a single path component")
        }
        return nil
    }

    /// The size limit of a transfer kind.
    static func sizeLimit(_ kind: SparkTransferKind) -> UInt64 {
        kind == .data ? SparkLimits.maxDataBytes : SparkLimits.maxFileBytes
    }

    static func size(_ size: UInt64, kind: SparkTransferKind) -> SparkWireError.Reason? {
        size > sizeLimit(kind) ? .sizeOverLimit(size: size, limit: sizeLimit(kind)) : nil
    }

    static let digestBytes = 32
    static let keyBytes = 32
}
