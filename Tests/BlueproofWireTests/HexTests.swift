import BlueproofWire
import Testing

@Suite("Hexadecimal text")
struct HexTests {
    @Test func parsesDigitsIgnoringSpacesAndColons() {
        #expect(bytes(fromHex: "01 0c:FF") == [0x01, 0x0C, 0xFF])
        #expect(bytes(fromHex: "") == [])
    }

    @Test(arguments: ["+f", "-1", "0g", "abc", "0x01"])
    func refusesAnythingButHexDigits(_ text: String) {
        #expect(bytes(fromHex: text) == nil)
    }

    @Test func formatsFixedWidth() {
        #expect(hex(UInt16(0x0C)) == "000c")
        #expect(hex([0x01, 0xAB] as [UInt8]) == "01ab")
    }
}
