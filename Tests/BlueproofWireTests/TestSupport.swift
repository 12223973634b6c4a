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

/// SplitMix64 (Steele, Lea, Flood 2014): a small seeded generator for reproducible tests.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
