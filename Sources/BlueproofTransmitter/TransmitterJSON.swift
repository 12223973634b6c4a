import Foundation

/// The deterministic JSON writer for transmitter dictionaries (docs/transmitter.md, "Payload
/// encoding"). Pure: the same value always gives the same bytes, on every platform.
///
/// - Objects: keys sorted by their UTF-8 bytes; no whitespace.
/// - Keys beginning with `$` are escaped by one more leading `$`, so `{"$binary": …}` is only ever
///   a binary value.
/// - Binary values: `{"$binary":"<base64, padded>"}`.
/// - Strings: `"` `\` and U+0000–U+001F escaped (`\b \f \n \r \t`, otherwise `\u00XX` lower-case
///   hex); everything else as UTF-8, `/` not escaped.
/// - Integers in decimal; doubles in Swift's shortest round-trip form (`description`), which is
///   valid JSON for finite values (`656.2973`, `1e-07`, `5.0`).
enum TransmitterJSON {
    static let binaryKey = "$binary"

    static func encode(_ value: TransmitterValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }

    static func encode(object: [String: TransmitterValue]) -> [UInt8] {
        var out: [UInt8] = []
        writeObject(object, into: &out)
        return out
    }

    static func escapeKey(_ key: String) -> String {
        key.hasPrefix("$") ? "$" + key : key
    }

    private static func write(_ value: TransmitterValue, into out: inout [UInt8]) {
        switch value {
        case .string(let string): writeString(string, into: &out)
        case .integer(let integer): out.append(contentsOf: Array(String(integer).utf8))
        case .number(let number): out.append(contentsOf: Array(number.description.utf8))
        case .bool(let bool): out.append(contentsOf: Array((bool ? "true" : "false").utf8))
        case .null: out.append(contentsOf: Array("null".utf8))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object): writeObject(object, into: &out)
        case .binary(let data):
            out.append(UInt8(ascii: "{"))
            writeString(binaryKey, into: &out)
            out.append(UInt8(ascii: ":"))
            writeString(data.base64EncodedString(), into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeObject(_ object: [String: TransmitterValue], into out: inout [UInt8]) {
        let entries = object.map { (key: Array(escapeKey($0.key).utf8), value: $0.value) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        out.append(UInt8(ascii: "{"))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeUTF8String(entry.key, into: &out)
            out.append(UInt8(ascii: ":"))
            write(entry.value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        writeUTF8String(Array(string.utf8), into: &out)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func writeUTF8String(_ bytes: [UInt8], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
