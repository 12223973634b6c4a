import BlueproofTransmitter

/// `FrameReader` for Spark frames: the same bounds-checked reads, with errors as
/// `SparkWireError` carrying the frame's header once it is known.
struct SparkReader {
    private var reader: FrameReader
    var header: SparkHeader?

    init(_ bytes: [UInt8]) { reader = FrameReader(bytes) }

    var offset: Int { reader.offset }
    var remaining: Int { reader.remaining }

    func failure(_ reason: SparkWireError.Reason, at offset: Int? = nil) -> SparkWireError {
        SparkWireError(offset: offset ?? reader.offset, reason: reason, header: header)
    }

    mutating func take(_ count: Int) throws(SparkWireError) -> [UInt8] {
        do { return Array(try reader.take(count)) } catch { throw SparkWireError(error, header: header) }
    }

    mutating func u8() throws(SparkWireError) -> UInt8 {
        do { return try reader.u8() } catch { throw SparkWireError(error, header: header) }
    }

    mutating func u16() throws(SparkWireError) -> UInt16 {
        do { return try reader.u16() } catch { throw SparkWireError(error, header: header) }
    }

    mutating func u32() throws(SparkWireError) -> UInt32 {
        do { return try reader.u32() } catch { throw SparkWireError(error, header: header) }
    }

    mutating func u64() throws(SparkWireError) -> UInt64 {
        do { return try reader.u64() } catch { throw SparkWireError(error, header: header) }
    }

    /// A length-prefixed UTF-8 text (u8 length for names, u16 for metadata) no longer than `limit` bytes.
    mutating func text(wideLength: Bool, limit: Int, field: String) throws(SparkWireError) -> String {
        let start = offset
        let length = wideLength ? Int(try u16()) : Int(try u8())
        if length > limit {
            throw failure(wideLength ? .metadataTooLarge(bytes: length, limit: limit) : .nameTooLong(bytes: length, limit: limit), at: start)
        }
        guard let text = String(validating: try take(length), as: UTF8.self) else {
            throw failure(.invalidField("\(field) is not UTF-8"), at: start)
        }
        return text
    }
}
