/// Lower-case hexadecimal of an integer, zero-padded to its byte width.
@inlinable
public func hex<T: FixedWidthInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16)
    let width = T.bitWidth / 4
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Bytes as space-free lower-case hexadecimal, e.g. `"01030c00"`.
public func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { hex($0) }.joined()
}

/// Parses hexadecimal text (whitespace and `:` ignored) into bytes; nil when malformed.
public func bytes(fromHex text: String) -> [UInt8]? {
    let digits = text.filter { !$0.isWhitespace && $0 != ":" }
    guard digits.count.isMultiple(of: 2), digits.allSatisfy(\.isHexDigit) else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
        out.append(byte)
        index = next
    }
    return out
}
