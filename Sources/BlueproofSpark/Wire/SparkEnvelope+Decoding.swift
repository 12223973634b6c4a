/// Decoding (docs/spark-wire.md): bounded, typed errors, never a trap on any input.
extension SparkEnvelope {
    /// Decodes one frame. `checkingFileNames` false lets a file name that is not one path
    /// component through: only the `fileNamePathTaken` variant passes it. `checkingEmpty`
    /// false lets a chunk or stream block of no bytes through: only `emptyPayloadTaken`.
    public static func decode(_ bytes: [UInt8], checkingFileNames: Bool = true, checkingEmpty: Bool = true) throws(SparkWireError) -> SparkEnvelope {
        guard bytes.count <= SparkLimits.maxFrameBytes else {
            throw SparkWireError(offset: 0, reason: .frameTooLarge(bytes: bytes.count, limit: SparkLimits.maxFrameBytes))
        }
        var reader = SparkReader(bytes)
        let version = try reader.u8()
        guard version == SparkLimits.version else { throw reader.failure(.unknownVersion(version), at: 0) }
        let kind = try reader.u8()
        let originByte = try reader.u8()
        guard let origin = SparkOrigin(rawValue: originByte) else { throw reader.failure(.invalidField("origin \(originByte)"), at: 2) }
        let connection = try reader.u32()
        reader.header = SparkHeader(kind: kind, origin: origin, connection: connection)
        let declared = Int(try reader.u16())
        guard declared == reader.remaining else {
            throw reader.failure(.lengthMismatch(declared: declared, actual: reader.remaining), at: 7)
        }
        let frame = try decodeBody(kind: kind, &reader, checkingFileNames: checkingFileNames, checkingEmpty: checkingEmpty)
        guard reader.remaining == 0 else {
            throw reader.failure(.lengthMismatch(declared: declared, actual: declared - reader.remaining))
        }
        return SparkEnvelope(origin: origin, connection: connection, frame: frame)
    }

    private static func decodeBody(kind: UInt8, _ reader: inout SparkReader, checkingFileNames: Bool, checkingEmpty: Bool) throws(SparkWireError) -> SparkFrame {
        func check(_ reason: SparkWireError.Reason?, at offset: Int) throws(SparkWireError) {
            if let reason { throw reader.failure(reason, at: offset) }
        }
        func rest(_ field: String) throws(SparkWireError) -> [UInt8] {
            try check(reader.remaining == 0 && checkingEmpty ? .invalidField("empty \(field)") : nil, at: reader.offset)
            return try reader.take(reader.remaining)
        }
        switch kind {
        case 1:
            return .hello(registrationID: try reader.u64())
        case 2:
            let caller = try reader.u64()
            let callee = try reader.u64()
            let key = try reader.take(SparkRules.keyBytes)
            let metadata = try reader.text(wideLength: true, limit: SparkLimits.maxMetadataBytes, field: "metadata")
            return .offer(SparkOffer(caller: caller, callee: callee, callerKey: key, metadata: metadata))
        case 3:
            return .accept
        case 4, 5:
            let start = reader.offset
            let code = try reader.u8()
            guard let reason = SparkEndReason(rawValue: code) else { throw reader.failure(.invalidField("end reason \(code)"), at: start) }
            return kind == 4 ? .decline(reason) : .end(reason)
        case 6:
            let channel = try reader.u32()
            let start = reader.offset
            let description = try reader.text(wideLength: false, limit: SparkLimits.maxNameBytes, field: "description")
            try check(SparkRules.name(description, isFileName: false), at: start)
            return .channelOpen(channel: channel, description: description)
        case 7:
            return .channelClose(channel: try reader.u32())
        case 8:
            let channel = try reader.u32()
            return .streamBlock(channel: channel, bytes: try rest("stream block"))
        case 9:
            let transfer = try reader.u32()
            let kindAt = reader.offset
            let kindByte = try reader.u8()
            guard let transferKind = SparkTransferKind(rawValue: kindByte) else {
                throw reader.failure(.invalidField("transfer kind \(kindByte)"), at: kindAt)
            }
            let sizeAt = reader.offset
            let size = try reader.u64()
            try check(SparkRules.size(size, kind: transferKind), at: sizeAt)
            let digest = try reader.take(SparkRules.digestBytes)
            let nameAt = reader.offset
            let name = try reader.text(wideLength: false, limit: SparkLimits.maxNameBytes, field: "name")
            try check(checkingFileNames ? SparkRules.name(name, isFileName: transferKind == .file) : nil, at: nameAt)
            return .transferHeader(SparkTransferHeader(transfer: transfer, kind: transferKind, size: size, sha256: digest, name: name))
        case 10:
            let transfer = try reader.u32()
            return .chunk(transfer: transfer, bytes: try rest("chunk"))
        case 11:
            return .done(transfer: try reader.u32())
        case 12:
            let transfer = try reader.u32()
            let start = reader.offset
            let code = try reader.u8()
            guard let failure = SparkTransferFailure(rawValue: code) else { throw reader.failure(.invalidField("transfer failure \(code)"), at: start) }
            return .error(transfer: transfer, failure: failure)
        default:
            throw reader.failure(.unknownKind(kind), at: 1)
        }
    }
}
