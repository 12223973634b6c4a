import Testing
import BlueproofWire

@Suite struct BluetoothUUIDTests {
    @Test func sixteenBitAliasRoundTrips() throws {
        let uuid = try #require(BluetoothUUID("180d"))
        #expect(uuid.uuid16 == 0x180D)
        #expect(uuid.description == "180D")
        #expect(uuid.littleEndianBytes == [0x0D, 0x18])
        #expect(try BluetoothUUID(littleEndian: [0x0D, 0x18]) == uuid)
        #expect(BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB") == uuid)
    }

    @Test func thirtyTwoBitAliasHasNoSixteenBitForm() throws {
        let uuid = BluetoothUUID(uuid32: 0x1234_5678)
        #expect(uuid.uuid16 == nil)
        #expect(uuid.uuid32 == 0x1234_5678)
        #expect(try BluetoothUUID(littleEndian: [0x78, 0x56, 0x34, 0x12]) == uuid)
        // ATT carries it in 128 bits.
        #expect(uuid.littleEndianBytes.count == 16)
        #expect(uuid.description == "12345678-0000-1000-8000-00805F9B34FB")
    }

    @Test func fullUUIDFromTheTransferSample() throws {
        let uuid = try #require(BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961"))
        #expect(uuid.uuid32 == nil)
        #expect(uuid.littleEndianBytes.first == 0x61)
        #expect(uuid.littleEndianBytes.last == 0xE2)
        #expect(try BluetoothUUID(littleEndian: uuid.littleEndianBytes) == uuid)
        #expect(uuid.description == "E20A39F4-73F5-4BC4-A12F-17D1AD07A961")
    }

    @Test(arguments: ["", "18", "180G", "E20A39F473F54BC4A12F17D1AD07A961", "E20A39F4-73F5-4BC4-A12F17D1-AD07A961"])
    func malformedTextIsRefused(_ text: String) {
        #expect(BluetoothUUID(text) == nil)
    }

    @Test func wrongWireLengthThrows() {
        #expect(throws: WireError.self) { try BluetoothUUID(littleEndian: [1, 2, 3]) }
    }
}
