import Foundation
import Testing
import BlueproofTransmitter

/// Payload encoding vectors (docs/transmitter.md, "Payload encoding") and exact
/// `transmissionSize` (bridgefy-ios-sdk-readme.md, "Dictionaries", "Binary data (files)").
@Suite("Payload encoding")
struct PayloadEncodingTests {
    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test("the document's sample dictionary: sorted keys, 74 bytes of JSON, 80 in all")
    func sampleDictionary() throws {
        let payload = try TransmitterPayload(anyDictionary: [
            "text": "Message text", "sequence": 3546, "duration": 656.2973, "success": true,
        ])
        let json = #"{"duration":656.2973,"sequence":3546,"success":true,"text":"Message text"}"#
        #expect(Self.text(payload.dictionaryJSON) == json)
        #expect(payload.dictionarySize == 74)
        #expect(payload.transmissionSize == 80)
        #expect(payload.encoded() == [0x01, 0x01, 0x00, 0x00, 0x00, 74] + Array(json.utf8))
        #expect(payload.kind == .dictionary)
        let parsed = try JSONSerialization.jsonObject(with: Data(payload.dictionaryJSON!)) as? [String: Any]
        #expect(parsed?["sequence"] as? Int == 3546)
    }

    @Test("binary only: 2 + 4 + 3 bytes")
    func binaryOnly() throws {
        let payload = try TransmitterPayload(dictionary: nil, data: Data([1, 2, 3]))
        #expect(payload.encoded() == [0x01, 0x02, 0, 0, 0, 3, 1, 2, 3])
        #expect(payload.transmissionSize == 9)
        #expect(payload.kind == .binary)
        #expect(payload.dictionarySize == nil)
    }

    @Test("dictionary and binary: dictionary part first")
    func both() throws {
        let payload = try TransmitterPayload(dictionary: ["a": .integer(1)], data: Data([0xFF]))
        #expect(payload.encoded() == [0x01, 0x03, 0, 0, 0, 7] + Array(#"{"a":1}"#.utf8) + [0, 0, 0, 1, 0xFF])
        #expect(payload.transmissionSize == 18)
        #expect(payload.kind == .dictionaryAndBinary)
    }

    @Test("empty dictionary is present; zero-length data is absent")
    func emptyParts() throws {
        let empty = try TransmitterPayload(dictionary: [:], data: Data())
        #expect(empty.encoded() == [0x01, 0x01, 0, 0, 0, 2, UInt8(ascii: "{"), UInt8(ascii: "}")])
        #expect(empty.transmissionSize == 8)
        let nothing = try TransmitterPayload(dictionary: nil, data: Data())
        #expect(nothing.kind == nil)
        #expect(nothing.encoded() == [0x01, 0x00])
        #expect(nothing.transmissionSize == 2)
        let verdict = SendValidator().validate(
            nothing.request(options: [.directTransmission], hasReceiver: true, receiverInRange: true, canEncryptToReceiver: true))
        #expect(verdict.error == .noDataToSend)
    }

    @Test("binary inside the dictionary becomes a $binary object; $ keys are escaped")
    func binaryValueAndEscaping() throws {
        let payload = try TransmitterPayload(anyDictionary: ["file": Data([0, 1, 2]), "$binary": "x", "$": 1])
        #expect(Self.text(payload.dictionaryJSON) == #"{"$$":1,"$$binary":"x","file":{"$binary":"AAEC"}}"#)
        #expect(payload.binary == nil)
    }

    @Test("string escapes, key order by UTF-8 bytes, nesting, numbers")
    func jsonDetails() throws {
        let payload = try TransmitterPayload(anyDictionary: [
            "b": "a\"b\\c\n\t\u{01}é/",
            "a": [1, NSNull(), false, 1e-07, 5.0, -3] as [Any],
            "B": ["z": [String: Any](), "y": [Any]()] as [String: Any],
            "é": Int64.min,
        ])
        let expected = #"{"B":{"y":[],"z":{}},"a":[1,null,false,1e-07,5.0,-3],"b":"a\"b\\c\n\t\u0001é/","é":-9223372036854775808}"#
        #expect(Self.text(payload.dictionaryJSON) == expected)
        #expect(payload.dictionarySize == expected.utf8.count)
        #expect(payload.transmissionSize == 2 + 4 + expected.utf8.count)
        #expect(try JSONSerialization.jsonObject(with: Data(payload.dictionaryJSON!)) is [String: Any])
    }

    @Test("the same dictionary built in any order encodes to the same bytes")
    func deterministic() throws {
        var first: [String: TransmitterValue] = [:]
        var second: [String: TransmitterValue] = [:]
        let keys = (0..<50).map { "key\($0)" }
        for key in keys { first[key] = .string(key) }
        for key in keys.reversed() { second[key] = .string(key) }
        let a = try TransmitterPayload(dictionary: first)
        let b = try TransmitterPayload(dictionary: second)
        #expect(a.encoded() == b.encoded())
    }

    struct Unencodable: Sendable {}
    final class Image: Sendable {}

    @Test("values that are neither JSON-encodable nor binary are refused with their key path")
    func unsupported() {
        #expect(throws: TransmitterError.unsupportedDictionaryValue) {
            try TransmitterPayload(anyDictionary: ["text": "Message text", "image": Image()])
        }
        do {
            _ = try TransmitterPayload(anyDictionary: ["list": [1, Unencodable()] as [Any]])
            Issue.record("accepted an unsupported value")
        } catch {
            #expect(error == .unsupportedDictionaryValue)
            #expect(error.detail == "list[1]: Unencodable")
        }
        do {
            _ = try TransmitterPayload(anyDictionary: ["outer": ["inner": Date()] as [String: Any]])
            Issue.record("accepted a Date")
        } catch {
            #expect(error.code == 50016)
            #expect(error.detail?.hasPrefix("outer.inner: ") == true)
        }
        #expect(throws: TransmitterError.unsupportedDictionaryValue) {
            try TransmitterPayload(anyDictionary: ["big": UInt64.max])
        }
    }

    @Test("non-finite numbers are refused", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(_ value: Double) {
        #expect(throws: TransmitterError.nonFiniteNumber) { try TransmitterPayload(anyDictionary: ["x": value]) }
        #expect(throws: TransmitterError.nonFiniteNumber) {
            try TransmitterPayload(dictionary: ["x": .array([.object(["y": .number(value)])])])
        }
    }

    @Test("Float infinity is refused too")
    func floatInfinity() {
        #expect(throws: TransmitterError.nonFiniteNumber) { try TransmitterPayload(anyDictionary: ["f": Float.infinity]) }
    }
}
