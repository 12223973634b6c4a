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

    /// Appends `value` in decimal, in one copy.
    public mutating func appendDecimal(_ value: Int) {
        // A 64-bit value has at most 20 digits and a sign: written backwards into 24 bytes.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { raw in
            var magnitude = value.magnitude
            var first = raw.count
            repeat {
                first -= 1
                raw[first] = 0x30 + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                first -= 1
                raw[first] = 0x2D  // "-"
            }
            append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[first...]))
        }
    }

    /// Appends `bytes` as lower-case hexadecimal, two digits an octet, in one copy.
    public mutating func appendHex(_ bytes: ArraySlice<UInt8>) {
        let count = 2 * bytes.count
        bytes.withUnsafeBufferPointer { octets in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { text in
                for (index, byte) in octets.enumerated() {
                    text[2 * index] = hexDigit(Int(byte >> 4))
                    text[2 * index + 1] = hexDigit(Int(byte & 0x0F))
                }
                append(contentsOf: UnsafeBufferPointer(text))
            }
        }
    }

    /// Appends `count` spaces, 32 a copy.
    public mutating func appendSpaces(_ count: Int) {
        let spaces: StaticString = "                                "
        var left = count
        while left > 0 {
            let step = Swift.min(left, spaces.utf8CodeUnitCount)
            spaces.withUTF8Buffer { append(contentsOf: UnsafeBufferPointer(rebasing: $0.prefix(step))) }
            left -= step
        }
    }

    /// Appends `byte` as two lower-case hexadecimal digits.
    public mutating func appendHex(byte: UInt8) {
        append(hexDigit(Int(byte >> 4)))
        append(hexDigit(Int(byte & 0x0F)))
    }
}
