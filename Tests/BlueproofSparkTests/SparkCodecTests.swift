import BlueproofSpark
import Testing

/// docs/spark-wire.md: layout, round trip, every bound refused with its typed error, and no
/// input that traps.
@Suite("Spark wire format")
struct SparkCodecTests {
    static let digest = [UInt8](repeating: 0xAB, count: 32)
    static let frames: [SparkFrame] = [
        .hello(registrationID: 0x0102_0304_0506_0708),
        .offer(SparkOffer(caller: 1, callee: 2, callerKey: SparkNet.key(1), metadata: "héllo")),
        .accept,
        .decline(.keyError),
        .end(.busy),
        .channelOpen(channel: 2, description: "HelloWorld Stream"),
        .channelClose(channel: 2),
        .streamBlock(channel: 2, bytes: Array("Hello World\n".utf8)),
        .transferHeader(SparkTransferHeader(transfer: 4, kind: .file, size: 10, sha256: digest, name: "photo.jpg")),
        .transferHeader(SparkTransferHeader(transfer: 6, kind: .data, size: 0, sha256: digest, name: "")),
        .chunk(transfer: 4, bytes: [1, 2, 3]),
        .done(transfer: 4),
        .error(transfer: 4, failure: .sourceUnavailable),
    ]

    static func decodeError(_ bytes: [UInt8]) -> SparkWireError.Reason? {
        do { _ = try SparkEnvelope.decode(bytes); return nil } catch { return error.reason }
    }

    static func encodeError(_ frame: SparkFrame) -> SparkWireError.Reason? {
        do { _ = try SparkEnvelope(origin: .sender, connection: 1, frame: frame).encoded(); return nil } catch { return error.reason }
    }

    /// Builds a frame by hand: header, then `body` as given (for bytes the encoder refuses to make).
    static func raw(kind: UInt8, body: [UInt8], version: UInt8 = 1, origin: UInt8 = 0, length: Int? = nil) -> [UInt8] {
        let count = length ?? body.count
        return [version, kind, origin, 0, 0, 0, 7, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)] + body
    }

    @Test("every kind round-trips; the header is version, kind, origin, connection, length")
    func roundTrip() throws {
        for (index, frame) in Self.frames.enumerated() {
            let envelope = SparkEnvelope(origin: index % 2 == 0 ? .sender : .receiver, connection: UInt32(index * 1000 + 7), frame: frame)
            let bytes = try envelope.encoded()
            #expect(bytes[0] == 1 && bytes[1] == frame.kind && bytes[2] == envelope.origin.rawValue)
            #expect(Int(bytes[7]) << 8 | Int(bytes[8]) == bytes.count - SparkEnvelope.headerBytes)
            #expect(try SparkEnvelope.decode(bytes) == envelope)
        }
        let end = try SparkEnvelope(origin: .receiver, connection: 0x0A0B_0C0D, frame: .end(.declined)).encoded()
        #expect(end == [1, 5, 1, 0x0A, 0x0B, 0x0C, 0x0D, 0, 1, 1])
    }

    @Test("metadata: 4095 and 4096 bytes pass, 4097 is refused both ways (SPK/CONN/BV-04, BV-05, BI-04)")
    func metadataBound() throws {
        for size in [4095, 4096] {
            let offer = SparkFrame.offer(SparkOffer(caller: 1, callee: 2, callerKey: SparkNet.key(1), metadata: String(repeating: "m", count: size)))
            #expect(Self.encodeError(offer) == nil)
        }
        let over = SparkFrame.offer(SparkOffer(caller: 1, callee: 2, callerKey: SparkNet.key(1), metadata: String(repeating: "é", count: 2049)))
        #expect(Self.encodeError(over) == .metadataTooLarge(bytes: 4098, limit: 4096))
        var body = [UInt8](repeating: 0, count: 16) + SparkNet.key(1) + [0x10, 0x01]
        body += [UInt8](repeating: 0x6D, count: 4097)
        #expect(Self.decodeError(Self.raw(kind: 2, body: body)) == .metadataTooLarge(bytes: 4097, limit: 4096))
    }

    @Test("names: 255 bytes pass, 256 refused; file names are one path component")
    func nameBounds() {
        #expect(Self.encodeError(.channelOpen(channel: 2, description: String(repeating: "d", count: 255))) == nil)
        #expect(Self.encodeError(.channelOpen(channel: 2, description: String(repeating: "d", count: 256))) == .nameTooLong(bytes: 256, limit: 255))
        for bad in ["", ".", "..", "../etc", "a/b", "nul\u{0}"] {
            let header = SparkTransferHeader(transfer: 2, kind: .file, size: 1, sha256: Self.digest, name: bad)
            #expect(Self.encodeError(.transferHeader(header)) == .invalidField("file name is not a single path component"), "\(bad)")
            let body: [UInt8] = [0, 0, 0, 2, 2] + [0, 0, 0, 0, 0, 0, 0, 1] + Self.digest + [UInt8(bad.utf8.count)] + Array(bad.utf8)
            #expect(Self.decodeError(Self.raw(kind: 9, body: body)) == .invalidField("file name is not a single path component"), "\(bad)")
        }
    }

    @Test("transfer sizes: data over 16 MiB and files over 64 GiB are refused")
    func sizeBounds() {
        let overData = SparkLimits.maxDataBytes + 1
        #expect(Self.encodeError(.transferHeader(SparkTransferHeader(transfer: 2, kind: .data, size: overData, sha256: Self.digest, name: "d")))
            == .sizeOverLimit(size: overData, limit: SparkLimits.maxDataBytes))
        let overFile = SparkLimits.maxFileBytes + 1
        var body: [UInt8] = [0, 0, 0, 2, 2]
        for shift in stride(from: 56, through: 0, by: -8) { body.append(UInt8(truncatingIfNeeded: overFile >> UInt64(shift))) }
        body += Self.digest + [1, 0x66]
        #expect(Self.decodeError(Self.raw(kind: 9, body: body)) == .sizeOverLimit(size: overFile, limit: SparkLimits.maxFileBytes))
    }

    @Test("frame size: 65535 bytes pass, more is refused both ways")
    func frameBound() throws {
        let fits = [UInt8](repeating: 1, count: SparkLimits.maxFrameBytes - SparkEnvelope.chunkOverhead)
        #expect(try SparkEnvelope(origin: .sender, connection: 1, frame: .chunk(transfer: 2, bytes: fits)).encoded().count == SparkLimits.maxFrameBytes)
        #expect(Self.encodeError(.chunk(transfer: 2, bytes: fits + [1])) == .frameTooLarge(bytes: 65_536, limit: 65_535))
        #expect(Self.decodeError([UInt8](repeating: 1, count: 65_536)) == .frameTooLarge(bytes: 65_536, limit: 65_535))
    }

    @Test("malformed headers and fields are refused with their reason and offset")
    func malformed() throws {
        #expect(Self.decodeError([]) == .truncated(needed: 1))
        #expect(Self.decodeError(Self.raw(kind: 3, body: [], version: 2)) == .unknownVersion(2))
        #expect(Self.decodeError(Self.raw(kind: 99, body: [])) == .unknownKind(99))
        #expect(Self.decodeError(Self.raw(kind: 3, body: [], origin: 2)) == .invalidField("origin 2"))
        #expect(Self.decodeError(Self.raw(kind: 3, body: [], length: 1)) == .lengthMismatch(declared: 1, actual: 0))
        #expect(Self.decodeError(Self.raw(kind: 3, body: [9])) == .lengthMismatch(declared: 1, actual: 0))
        #expect(Self.decodeError(Self.raw(kind: 5, body: [0])) == .invalidField("end reason 0"))
        #expect(Self.decodeError(Self.raw(kind: 12, body: [0, 0, 0, 1, 9])) == .invalidField("transfer failure 9"))
        #expect(Self.decodeError(Self.raw(kind: 10, body: [0, 0, 0, 1])) == .invalidField("empty chunk"))
        #expect(Self.decodeError(Self.raw(kind: 8, body: [0, 0, 0, 1])) == .invalidField("empty stream block"))
        #expect(Self.decodeError(Self.raw(kind: 6, body: [0, 0, 0, 1, 1, 0xFF])) == .invalidField("description is not UTF-8"))
        #expect(Self.decodeError(Self.raw(kind: 9, body: [0, 0, 0, 1, 3])) == .invalidField("transfer kind 3"))
        do {
            _ = try SparkEnvelope.decode(Self.raw(kind: 2, body: [1, 2]))
            Issue.record("a truncated offer decoded")
        } catch {
            #expect(error.reason == .truncated(needed: 8))
            #expect(error.offset == SparkEnvelope.headerBytes)
            #expect(error.header == SparkHeader(kind: 2, origin: .sender, connection: 7))
        }
    }

    @Test("random and mutated input never traps; whatever decodes re-encodes to the same bytes")
    func fuzz() async throws {
        var generator = SystemRandomNumberGenerator()
        let seeds = try Self.frames.map { try SparkEnvelope(origin: .sender, connection: 3, frame: $0).encoded() }
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }  // a long loop: leave the test pool to others now and then
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if bytes.count > 1 && round % 4 == 0 { bytes[0] = 1 }
            } else {
                bytes = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                    switch Int.random(in: 0...2, using: &generator) {
                    case 0: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
                    default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
                    }
                }
            }
            if let envelope = try? SparkEnvelope.decode(bytes) {
                #expect(try envelope.encoded() == bytes)
            }
        }
    }
}
