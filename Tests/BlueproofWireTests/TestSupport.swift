import Testing
import BlueproofWire

/// Hex text to bytes for test vectors; a malformed literal is a bug in the test.
func hexBytes(_ text: String) -> [UInt8] {
    guard let value = bytes(fromHex: text) else { fatalError("bad hex literal in test: \(text)") }
    return value
}

/// A `AA:BB:CC:DD:EE:FF` address literal; a malformed one is a bug in the test.
func address(_ text: String) -> BDAddress {
    guard let value = BDAddress(text) else { fatalError("bad address literal in test: \(text)") }
    return value
}

/// Where decoding the first `prefix` bytes of a fixed layout must fail: at the first field
/// (of the given `widths`, in order) not wholly present, `firstOffset` being the offset of the
/// first field in errors. Nil when every field is present.
func expectedTruncation(widths: [Int], prefix: Int, firstOffset: Int = 0) -> (offset: Int, reason: WireError.Reason)? {
    var start = 0
    for width in widths {
        if start + width > prefix {
            return (firstOffset + start, .truncated(needed: width, available: prefix - start))
        }
        start += width
    }
    return nil
}

