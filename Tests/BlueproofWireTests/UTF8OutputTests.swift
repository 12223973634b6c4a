import BlueproofWire
import Testing

/// The one-copy appends of `inspect`'s hot path write what `String` would.
@Suite("UTF8Output")
struct UTF8OutputTests {
    @Test("decimals match String(_:), signs and both ends of Int included",
          arguments: [0, 7, 10, 99, 100, -1, -42, 1_000_000, Int.max, Int.min])
    func decimal(value: Int) {
        var out: [UInt8] = [0x3D]
        out.appendDecimal(value)
        #expect(String(decoding: out, as: UTF8.self) == "=" + String(value))
    }

    @Test("hexadecimal: two lower-case digits an octet, a slice from its own start, one octet alone")
    func hex() {
        var out: [UInt8] = []
        out.appendHex([])
        let bytes: [UInt8] = [0x00, 0x0F, 0xA0, 0xFF, 0x12]
        out.appendHex(bytes[1...])
        out.appendHex(byte: 0xC3)
        #expect(String(decoding: out, as: UTF8.self) == "0fa0ff12c3")
    }

    @Test("spaces: none for a count of 0 or less, more than one literal's worth in several copies",
          arguments: [-3, 0, 1, 32, 33, 70])
    func spaces(count: Int) {
        var out: [UInt8] = []
        out.appendSpaces(count)
        #expect(out == [UInt8](repeating: 0x20, count: max(count, 0)))
    }
}
