import Foundation

/// Reads the dictionary JSON `TransmitterJSON` writes back into values: integers (no fraction or
/// exponent) as `.integer`, other numbers as `.number`, `{"$binary":"…"}` as `.binary`, and a
/// key's doubled leading `$` undone (docs/transmitter.md, "Payload encoding"). Strict: trailing
/// bytes, bad escapes, unpaired surrogates and nesting deeper than
/// `TransmitterValue.maxNestingDepth` are refused, the last before recursing any further.
struct TransmitterJSONReader {
    struct Failure: Error { var offset: Int; var reason: String }

    private let bytes: [UInt8]
    private var index = 0
    /// Objects and arrays open at `index`.
    private var depth = 0

    static func readObject(_ bytes: [UInt8]) throws(Failure) -> [String: TransmitterValue] {
        var reader = TransmitterJSONReader(bytes: bytes)
        reader.skipSpace()
        guard case .object(let object) = try reader.value() else { throw Failure(offset: 0, reason: "top level is not an object") }
        reader.skipSpace()
        guard reader.index == bytes.count else { throw Failure(offset: reader.index, reason: "trailing bytes") }
        return object
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    /// Enters an object or array, refusing one level beyond the limit.
    private mutating func descend() throws(Failure) {
        guard depth < TransmitterValue.maxNestingDepth else {
            throw fail("nested deeper than maxNestingDepth (\(TransmitterValue.maxNestingDepth) levels)")
        }
        depth += 1
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        let utf8 = Array(literal.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else { throw fail("expected \(literal)") }
        index += utf8.count
    }

    private mutating func value() throws(Failure) -> TransmitterValue {
        skipSpace()
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    private mutating func object() throws(Failure) -> TransmitterValue {
        try descend()
        defer { depth -= 1 }
        index += 1
        var object: [String: TransmitterValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected key") }
            let key = try string()
            skipSpace()
            try expect(":")
            object[key] = try value()
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            try expect("}")
            break
        }
        if object.count == 1, case .string(let base64)? = object["$binary"] {
            guard let data = Data(base64Encoded: base64) else { throw fail("bad base64 in $binary") }
            return .binary(data)
        }
        var unescaped: [String: TransmitterValue] = [:]
        for (key, value) in object {
            unescaped[key.hasPrefix("$$") ? String(key.dropFirst()) : key] = value
        }
        return .object(unescaped)
    }

    private mutating func array() throws(Failure) -> TransmitterValue {
        try descend()
        defer { depth -= 1 }
        index += 1
        var array: [TransmitterValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
        while true {
            array.append(try value())
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            try expect("]")
            return .array(array)
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(UnicodeScalar(bytes[index])).hexDigitValue else { throw fail("bad \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("unpaired surrogate") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw fail("bad escape")
                }
            case 0x00..<0x20: throw fail("control character in string")
            default: out.append(byte)
            }
        }
    }

    private mutating func number() throws(Failure) -> TransmitterValue {
        let start = index
        var integral = true
        while index < bytes.count, let char = Optional(bytes[index]),
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(char) {
            if [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(char) { integral = false }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .integer(value) }
        guard !text.isEmpty, let value = Double(text), value.isFinite else { throw Failure(offset: start, reason: "bad number") }
        return .number(value)
    }
}
