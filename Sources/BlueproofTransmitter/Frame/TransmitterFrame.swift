/// One whole transmitter frame (docs/transmitter-wire.md). Links carry frames whole; splitting
/// them over the ATT MTU is the BLE link's business.
///
/// Layout: `u8 version (2) | u8 kind | u32 body length | body`, all integers big-endian.
public enum TransmitterFrame: Hashable, Sendable {
    case hello(HelloFrame)
    case keyRequest(KeyExchangeFrame)
    case keyResponse(KeyExchangeFrame)
    case data(DataFrame)

    /// The only version this code writes and reads: 2 brought the signed hello, 3 the sealed
    /// data frame (issue 15; docs/transmitter-wire.md).
    public static let version: UInt8 = 3
    /// Bytes before the body.
    public static let headerSize = 6

    public var kind: FrameKind {
        switch self {
        case .hello: .hello
        case .keyRequest: .keyRequest
        case .keyResponse: .keyResponse
        case .data: .data
        }
    }

    public func encoded() -> [UInt8] {
        var body: [UInt8] = []
        switch self {
        case .hello(let hello): hello.encodeBody(into: &body)
        case .keyRequest(let key), .keyResponse(let key): key.encodeBody(into: &body)
        case .data(let data): data.encodeBody(into: &body)
        }
        var out: [UInt8] = [Self.version, kind.rawValue]
        out.reserveCapacity(Self.headerSize + body.count)
        out.appendU32(UInt32(clamping: body.count))
        out.append(contentsOf: body)
        return out
    }

    /// Decodes exactly one frame; every byte must belong to it. Never traps.
    public static func decode(_ bytes: [UInt8]) throws(FrameError) -> TransmitterFrame {
        var header = FrameReader(bytes)
        let version = try header.u8()
        guard version == Self.version else { throw FrameError(offset: 0, reason: .unknownVersion(version)) }
        let kindByte = try header.u8()
        guard let kind = FrameKind(rawValue: kindByte) else { throw FrameError(offset: 1, reason: .unknownKind(kindByte)) }
        let declared = Int(try header.u32())
        guard declared == header.remaining else {
            throw FrameError(offset: 2, reason: .lengthMismatch(declared: declared, actual: header.remaining))
        }
        var reader = FrameReader(bytes, from: headerSize)
        let frame: TransmitterFrame
        switch kind {
        case .hello: frame = .hello(try HelloFrame.decodeBody(&reader))
        case .keyRequest: frame = .keyRequest(try KeyExchangeFrame.decodeBody(&reader))
        case .keyResponse: frame = .keyResponse(try KeyExchangeFrame.decodeBody(&reader))
        case .data: frame = .data(try DataFrame.decodeBody(&reader))
        }
        guard reader.remaining == 0 else {
            throw FrameError(offset: reader.offset, reason: .lengthMismatch(declared: declared, actual: reader.offset - headerSize))
        }
        return frame
    }
}
