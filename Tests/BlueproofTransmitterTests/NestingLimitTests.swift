import Foundation
import Testing
import BlueproofTransmitter

/// Dictionaries nested deeper than `TransmitterValue.maxNestingDepth` are refused on both sides,
/// with an error naming the limit, never by a crash (issue 11).
@Suite("Nesting limit")
struct NestingLimitTests {
    static let limit = TransmitterValue.maxNestingDepth

    /// `{"a":{"a":…1…}}` with `levels` objects, as bytes of the payload encoding.
    static func nestedPayload(levels: Int) -> [UInt8] {
        let json = Array((String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)).utf8)
        let length = UInt32(json.count)
        return [TransmitterPayload.formatVersion, TransmitterPayload.flagDictionary,
                UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + json
    }

    /// A dictionary whose JSON nests `levels` objects (the top-level dictionary being the first).
    static func nested(levels: Int, leaf: TransmitterValue = .integer(1)) -> [String: TransmitterValue] {
        var value = leaf
        for _ in 1..<levels { value = .object(["a": value]) }
        return ["a": value]
    }

    @Test("a received dictionary nested 3,000 levels deep is refused naming the limit, not a crash")
    func receivedTooDeep() {
        let error = #expect(throws: FrameError.self) { try TransmitterPayload.decode(Self.nestedPayload(levels: 3000)) }
        #expect(error.map { "\($0)" }?.contains("\(Self.limit) levels") == true, "\(String(describing: error))")
    }

    @Test("the limit is inclusive on receipt: 64 levels decode, 65 do not")
    func receivedBoundary() throws {
        let decoded = try TransmitterPayload.decode(Self.nestedPayload(levels: Self.limit))
        #expect(decoded.dictionary == Self.nested(levels: Self.limit))
        #expect(throws: FrameError.self) { try TransmitterPayload.decode(Self.nestedPayload(levels: Self.limit + 1)) }
    }

    @Test("a sender refuses a dictionary deeper than the limit, naming it; one at the limit goes and decodes")
    func sentTooDeep() throws {
        let error = #expect(throws: TransmitterError.unsupportedDictionaryValue) {
            try TransmitterPayload(dictionary: Self.nested(levels: 1000))
        }
        #expect(error?.detail?.contains("\(Self.limit) levels") == true, "\(String(describing: error))")
        #expect(throws: TransmitterError.unsupportedDictionaryValue) { try TransmitterPayload(dictionary: Self.nested(levels: Self.limit + 1)) }
        let deepest = try TransmitterPayload(dictionary: Self.nested(levels: Self.limit))
        #expect(try TransmitterPayload.decode(deepest.encoded()) == deepest)
    }

    @Test("binary data counts as a level, as its JSON is an object: what a sender accepts, a receiver reads")
    func binaryIsALevel() throws {
        #expect(throws: TransmitterError.unsupportedDictionaryValue) {
            try TransmitterPayload(dictionary: Self.nested(levels: Self.limit, leaf: .binary(Data([1]))))
        }
        #expect(throws: TransmitterError.unsupportedDictionaryValue) {
            try TransmitterPayload(dictionary: Self.nested(levels: Self.limit, leaf: .array([])))
        }
        let deepest = try TransmitterPayload(dictionary: Self.nested(levels: Self.limit - 1, leaf: .binary(Data([1]))))
        #expect(try TransmitterPayload.decode(deepest.encoded()) == deepest)
    }

    @Test("an application's nested [Any] deeper than the limit is refused while converting")
    func anyTooDeep() {
        var value: Any = 1
        for _ in 0..<1000 { value = [value] }
        let error = #expect(throws: TransmitterError.unsupportedDictionaryValue) {
            try TransmitterPayload(anyDictionary: ["list": value])
        }
        #expect(error?.detail?.contains("\(Self.limit) levels") == true, "\(String(describing: error))")
    }
}
