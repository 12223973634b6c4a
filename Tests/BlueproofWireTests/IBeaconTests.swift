import Testing
import BlueproofWire

@Suite("iBeacon in manufacturer specific data")
struct IBeaconTests {
    static let uuidText = "E20A39F4-73F5-4BC4-A12F-17D1AD07A961"
    /// Flags, then Apple's data: type 02, length 15, UUID, major 1, minor 2, power -59 dBm.
    static let vector = hexBytes("020106 1aff4c00 0215 e20a39f473f54bc4a12f17d1ad07a961 0001 0002 c5")

    @Test func decodesFromAdvertisingData() throws {
        let data = try AdvertisingData(bytes: Self.vector)
        let beacon = try #require(IBeacon(advertisingData: data))
        #expect(beacon.proximityUUID == BluetoothUUID(Self.uuidText))
        #expect(beacon.major == 1)
        #expect(beacon.minor == 2)
        #expect(beacon.measuredPower == -59)
        #expect(beacon.idString == "E20A39F4-73F5-4BC4-A12F-17D1AD07A961.Maj:1.Min:2")
    }

    @Test func buildsTheSameBytesAndFitsLegacyAdvertising() throws {
        let beacon = IBeacon(proximityUUID: try #require(BluetoothUUID(Self.uuidText)), major: 1, minor: 2, measuredPower: -59)
        #expect(try beacon.advertisingData.encodedLegacy() == Self.vector)
        #expect(Self.vector.count == 30)
    }

    @Test func majorAndMinorAreBigEndian() throws {
        let beacon = IBeacon(proximityUUID: BluetoothUUID(uuid16: 0x180D), major: 0x1234, minor: 0xABCD, measuredPower: 0)
        let data = beacon.manufacturerData.data
        #expect(Array(data[18..<22]) == [0x12, 0x34, 0xAB, 0xCD])
        #expect(try IBeacon(manufacturerData: beacon.manufacturerData) == beacon)
        // A UUID on the Base UUID still prints in full, and numbers print in decimal.
        #expect(beacon.idString == "0000180D-0000-1000-8000-00805F9B34FB.Maj:4660.Min:43981")
    }

    @Test func refusesOtherCompanies() {
        let data = ManufacturerSpecificData(companyIdentifier: 0x0059, data: Array(Self.vector[7...]))
        expectWireError(offset: 0, .invalidValue("0x0059 is not Apple (0x004c)")) { try IBeacon(manufacturerData: data) }
    }

    @Test func refusesOtherTypes() {
        var bytes = Array(Self.vector[7...])
        bytes[0] = 0x03
        expectWireError(offset: 2, .invalidValue("0x03 is not 0x02")) {
            try IBeacon(manufacturerData: ManufacturerSpecificData(companyIdentifier: 0x004C, data: bytes))
        }
    }

    @Test func refusesWrongLengthOrTruncatedData() {
        var wrongLength = Array(Self.vector[7...])
        wrongLength[1] = 0x14
        expectWireError(offset: 3, .lengthMismatch(declared: 0x14, actual: 21)) {
            try IBeacon(manufacturerData: ManufacturerSpecificData(companyIdentifier: 0x004C, data: wrongLength))
        }
        let truncated = Array(Self.vector[7..<(Self.vector.count - 1)])
        expectWireError(offset: 3, .lengthMismatch(declared: 21, actual: 20)) {
            try IBeacon(manufacturerData: ManufacturerSpecificData(companyIdentifier: 0x004C, data: truncated))
        }
        expectWireError(offset: 2, .truncated(needed: 1, available: 0)) {
            try IBeacon(manufacturerData: ManufacturerSpecificData(companyIdentifier: 0x004C, data: []))
        }
    }

    @Test func searchSkipsOtherManufacturerData() throws {
        let other = hexBytes("02ff4c")  // malformed: no room for a company identifier
        let data = try AdvertisingData(bytes: other + Array(Self.vector[3...]))
        #expect(IBeacon(advertisingData: data)?.minor == 2)
        #expect(IBeacon(advertisingData: try AdvertisingData(bytes: hexBytes("020106"))) == nil)
    }
}
