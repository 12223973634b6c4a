/// Lower-case hexadecimal of an integer, zero-padded to its byte width.
@inlinable
public func hex<T: FixedWidthInteger>(_ value: T) -> String {
    let width = T.bitWidth / 4
    if value >= 0 {
        return String(unsafeUninitializedCapacity: width) { buffer in
            for place in 0..<width {
                buffer[place] = hexDigit(Int(truncatingIfNeeded: value >> ((width - 1 - place) * 4)) & 0x0F)
            }
            return width
        }
    }
    // A negative value keeps its sign, as String(_:radix:) writes it.
    let digits = String(value, radix: 16)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Bytes as space-free lower-case hexadecimal, e.g. `"01030c00"`.
public func hex(_ bytes: some Sequence<UInt8>) -> String {
    // Written into one buffer: a String per byte made `inspect` spend most of its time here.
    let octets = Array(bytes)
    return String(unsafeUninitializedCapacity: octets.count * 2) { buffer in
        for (index, byte) in octets.enumerated() {
            buffer[2 * index] = hexDigit(Int(byte >> 4))
            buffer[2 * index + 1] = hexDigit(Int(byte & 0x0F))
        }
        return octets.count * 2
    }
}

/// The lower-case hexadecimal digit of `nibble` (0 to 15) as UTF-8.
@usableFromInline @inline(__always)
func hexDigit(_ nibble: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: nibble < 10 ? 0x30 + nibble : 0x57 + nibble)
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
