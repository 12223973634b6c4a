/// Text written as UTF-8 into a byte buffer without making a `String` per piece: the output
/// of `inspect`, whose lines are the hot path of reading a long capture (issue 16).
extension [UInt8] {
    /// Appends a literal's UTF-8 in one copy (appending a String's UTF-8 view goes octet by octet).
    @inlinable
    public mutating func append(static text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends `text`'s UTF-8 in one copy.
    public mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    public mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(0x2D) }  // "-"
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            append(0x30 + UInt8(truncatingIfNeeded: (magnitude / divisor) % 10))
            divisor /= 10
        }
    }

    /// Appends `bytes` as lower-case hexadecimal, two digits an octet.
    public mutating func appendHex(_ bytes: ArraySlice<UInt8>) {
        let start = count
        append(contentsOf: repeatElement(0, count: 2 * bytes.count))
        withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { octets in
                for (index, byte) in octets.enumerated() {
                    out[start + 2 * index] = hexDigit(Int(byte >> 4))
                    out[start + 2 * index + 1] = hexDigit(Int(byte & 0x0F))
                }
            }
        }
    }
}
