import Testing
import BlueproofWire

/// Expects `body` to throw a ``WireError`` at `offset` for `reason`.
func expectWireError<T>(offset: Int, _ reason: WireError.Reason, sourceLocation: SourceLocation = #_sourceLocation,
                        _ body: () throws -> T) {
    do {
        let value = try body()
        Issue.record("decoded \(value)", sourceLocation: sourceLocation)
    } catch let error as WireError {
        #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation)
        #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("threw \(error), not a WireError", sourceLocation: sourceLocation)
    }
}

@Suite("Advertising data (Core Supplement, Part A §1)")
struct AdvertisingDataTests {
    @Test func decodesTypedFieldsAndStopsAtPadding() throws {
        let bytes = hexBytes("020106 03030d18 050941424344 020af4 000000")
        let data = try AdvertisingData(bytes: bytes)
        #expect(data.structures.count == 4)
        #expect(data.flags == .generalDiscoverableLEOnly)
        #expect(try data.serviceUUIDs() == [BluetoothUUID(uuid16: 0x180D)])
        #expect(try data.serviceUUIDs(complete: false) == [])
        #expect(try data.localName == "ABCD")
        #expect(try data.completeLocalName == "ABCD")
        #expect(try data.shortenedLocalName == nil)
        #expect(try data.txPowerLevel == -12)
        #expect(try data.appearance == nil)
        // The significant part comes back without the padding.
        #expect(try data.encoded() == Array(bytes.prefix(16)))
    }

    @Test func unknownTypesArePreservedInOrder() throws {
        let bytes = hexBytes("032a0102 020106 01ee")
        let data = try AdvertisingData(bytes: bytes)
        #expect(data.structures == [
            AdvertisingDataStructure(type: AdvertisingDataType(rawValue: 0x2A), data: [1, 2]),
            AdvertisingDataStructure(type: .flags, data: [0x06]),
            AdvertisingDataStructure(type: AdvertisingDataType(rawValue: 0xEE), data: []),
        ])
        #expect(try data.encoded() == bytes)
        #expect(AdvertisingDataType(rawValue: 0x2A).description == "0x2a")
    }

    @Test func emptyInputAndAllPaddingDecodeToNothing() throws {
        #expect(try AdvertisingData(bytes: []).structures.isEmpty)
        #expect(try AdvertisingData(bytes: [UInt8](repeating: 0, count: 31)).structures.isEmpty)
    }

    @Test func lengthThatOverrunsThrowsAtItsOffset() {
        expectWireError(offset: 3, .lengthMismatch(declared: 5, actual: 3)) {
            try AdvertisingData(bytes: hexBytes("020106 05094142"))
        }
        expectWireError(offset: 3, .lengthMismatch(declared: 3, actual: 0)) {
            try AdvertisingData(bytes: hexBytes("020106 03"))
        }
    }

    @Test func emptyFlagsFieldMeansNoFlags() throws {
        #expect(try AdvertisingData(bytes: [0x01, 0x01]).flags == [])
        #expect(try AdvertisingData(bytes: [0x03, 0x01, 0x05, 0xFF]).flags == [.leLimitedDiscoverableMode, .brEdrNotSupported])
        #expect(try AdvertisingData(bytes: []).flags == nil)
    }

    @Test func serviceUUIDListsOfEveryWidth() throws {
        let full = try #require(BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961"))
        let uuids = [BluetoothUUID(uuid16: 0x180D), BluetoothUUID(uuid32: 0x1234_5678), full, BluetoothUUID(uuid16: 0x180F)]
        let data = AdvertisingData(AdvertisingDataStructure.serviceUUIDs(uuids, complete: false))
        let bytes = try data.encoded()
        #expect(Array(bytes.prefix(12)) == hexBytes("05020d180f18 050478563412"))
        #expect(bytes[12] == 17 && bytes[13] == 0x06)
        let decoded = try AdvertisingData(bytes: bytes)
        #expect(try decoded.serviceUUIDs() == [BluetoothUUID(uuid16: 0x180D), BluetoothUUID(uuid16: 0x180F),
                                               BluetoothUUID(uuid32: 0x1234_5678), full])
        #expect(try decoded.serviceUUIDs(complete: true) == [])
        let complete = AdvertisingData(AdvertisingDataStructure.serviceUUIDs([full], complete: true))
        #expect(try complete.encoded().prefix(2) == [17, 0x07])
    }

    @Test func uuidListWithPartialUUIDThrows() {
        expectWireError(offset: 3, .invalidValue("3 octets is not a whole number of 2-octet UUIDs")) {
            try AdvertisingData(bytes: hexBytes("020106 04030d180f")).serviceUUIDs()
        }
    }

    @Test func serviceDataInEachWidth() throws {
        let full = try #require(BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961"))
        let values = [ServiceData(uuid: BluetoothUUID(uuid16: 0x180D), data: [0xAA, 0xBB]),
                      ServiceData(uuid: BluetoothUUID(uuid32: 0x1234_5678), data: [0x01]),
                      ServiceData(uuid: full, data: [])]
        let data = AdvertisingData(values.map(AdvertisingDataStructure.serviceData))
        let bytes = try data.encoded()
        #expect(Array(bytes.prefix(13)) == hexBytes("05160d18aabb 062078563412 01"))
        #expect(bytes[13] == 17 && bytes[14] == 0x21)
        #expect(try AdvertisingData(bytes: bytes).serviceData == values)
    }

    @Test func truncatedServiceDataUUIDThrows() {
        expectWireError(offset: 2, .truncated(needed: 16, available: 2)) {
            try AdvertisingData(bytes: hexBytes("03210102")).serviceData
        }
    }

    @Test func manufacturerSpecificData() throws {
        let data = try AdvertisingData(bytes: hexBytes("05ff4c000102 03ff5900"))
        #expect(try data.manufacturerSpecificData == [
            ManufacturerSpecificData(companyIdentifier: 0x004C, data: [1, 2]),
            ManufacturerSpecificData(companyIdentifier: 0x0059, data: []),
        ])
        let built = AdvertisingData([.manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: 0x0059, data: [9]))])
        #expect(try built.encoded() == hexBytes("04ff590009"))
    }

    @Test func manufacturerDataWithoutCompanyIdentifierThrows() {
        expectWireError(offset: 2, .truncated(needed: 2, available: 1)) {
            try AdvertisingData(bytes: hexBytes("02ff4c")).manufacturerSpecificData
        }
    }

    @Test func txPowerAndAppearanceHaveFixedLengths() throws {
        let data = try AdvertisingData(bytes: hexBytes("0319 4103 020a 7f"))
        #expect(try data.appearance == 0x0341)
        #expect(try data.txPowerLevel == 127)
        expectWireError(offset: 3, .lengthMismatch(declared: 2, actual: 1)) {
            try AdvertisingData(bytes: hexBytes("030a0102")).txPowerLevel
        }
        expectWireError(offset: 2, .truncated(needed: 2, available: 1)) {
            try AdvertisingData(bytes: hexBytes("021941")).appearance
        }
        expectWireError(offset: 2, .truncated(needed: 1, available: 0)) {
            try AdvertisingData(bytes: hexBytes("010a")).txPowerLevel
        }
    }

    @Test func namesMustBeUTF8() throws {
        expectWireError(offset: 2, .invalidValue("not UTF-8")) {
            try AdvertisingData(bytes: hexBytes("0309fffe")).localName
        }
        let shortened = try AdvertisingData(bytes: hexBytes("0408c3a9 78"))
        #expect(try shortened.localName == "éx")
        #expect(try shortened.completeLocalName == nil)
    }

    @Test func buildersEncodeTheExpectedBytes() throws {
        let data = AdvertisingData([
            .flags(.generalDiscoverableLEOnly),
            .localName("Ab", complete: false),
            .txPowerLevel(-8),
            .appearance(0x0341),
        ])
        #expect(try data.encoded() == hexBytes("020106 03084162 020af8 03194103"))
        #expect(data.encodedCount == 14)
    }

    @Test func legacyDataHoldsAtMostThirtyOneOctets() throws {
        let fits = AdvertisingData([.localName(String(repeating: "a", count: 29))])
        #expect(try fits.encodedLegacy().count == 31)
        let tooLong = AdvertisingData([.localName(String(repeating: "a", count: 30))])
        #expect(try tooLong.encoded().count == 32)
        expectWireError(offset: 31, .invalidValue("32 octets, legacy advertising holds at most 31")) {
            try tooLong.encodedLegacy()
        }
    }

    @Test func structureLongerThanItsLengthOctetCanCountIsRefused() {
        let data = AdvertisingData([.flags([]), AdvertisingDataStructure(type: .manufacturerSpecificData, data: [UInt8](repeating: 1, count: 255))])
        expectWireError(offset: 3, .invalidValue("255 octets of AD data, at most 254 fit")) { try data.encoded() }
        let maximal = AdvertisingData([AdvertisingDataStructure(type: .manufacturerSpecificData, data: [UInt8](repeating: 1, count: 254))])
        #expect((try? maximal.encoded())?.first == 255)
    }

    @Test func typeMetadata() {
        #expect(AdvertisingDataType.incompleteServiceUUIDs32.serviceUUIDList! == (4, false))
        #expect(AdvertisingDataType.completeServiceUUIDs128.serviceUUIDList! == (16, true))
        #expect(AdvertisingDataType.flags.serviceUUIDList == nil)
        #expect(AdvertisingDataType.serviceData32.serviceDataUUIDWidth == 4)
        #expect(AdvertisingDataType.manufacturerSpecificData.description == "Manufacturer Specific Data (0xff)")
    }
}
