import BlueproofHost
import BlueproofWire
import Testing

@Suite struct GATTDatabaseTests {
    @Test func assignsHandlesFromOneWithGAPAndGATTFirst() {
        let database = KnownDatabase.database()
        #expect(database.attributes.count == 0x16)
        #expect(database.attributes.enumerated().allSatisfy { Int($0.element.handle) == $0.offset + 1 })
        let types = database.attributes.map { $0.type.uuid16 ?? 0 }
        #expect(types == [0x2800, 0x2803, 0x2A00, 0x2803, 0x2A01,
                          0x2800, 0x2803, 0x2A05, 0x2902,
                          0x2800, 0x2803, 0x2A37, 0x2902, 0x2803, 0x2A39, 0x2901,
                          0x2800, 0x2803, 0, 0x2902, 0x2803, 0x2A19])
        #expect(database.services.map { [$0.startHandle, $0.endHandle] } == [[1, 5], [6, 9], [0x0A, 0x10], [0x11, 0x16]])
        #expect(database.attribute(GATTDatabase.deviceNameHandle)?.value == Array("blueproof".utf8))
        #expect(database.attribute(GATTDatabase.appearanceHandle)?.value == [0, 0])
        #expect(database.attribute(GATTDatabase.serviceChangedHandle)?.permissions == [])
        #expect(database.attribute(0) == nil)
        #expect(database.attribute(0x17) == nil)
    }

    @Test func declarationsPointAtTheirValues() {
        let database = KnownDatabase.database()
        #expect(database.attribute(0x02)?.value == attBytes("02 0300 002a"))
        #expect(database.attribute(0x07)?.value == attBytes("20 0800 052a"))
        #expect(database.attribute(0x0B)?.value == attBytes("12 0c00 372a"))
        #expect(database.attribute(0x12)?.value == attBytes("2c 1300 d413ebfaf67257877e4605db7e0f5908"))
        #expect(database.attribute(0x0A)?.value == attBytes("0d18"))
        #expect(database.attribute(0x11)?.value == attBytes("61a907add1172fa1c44bf573f4390ae2"))
        #expect(database.attribute(0x11)?.groupEndHandle == 0x16)
    }

    @Test func characteristicsKnowTheirConfigurationAndEnd() {
        let database = KnownDatabase.database()
        let heartRate = database.characteristic(uuid: BluetoothUUID(uuid16: 0x2A37))
        #expect(heartRate?.declarationHandle == 0x0B)
        #expect(heartRate?.valueHandle == 0x0C)
        #expect(heartRate?.configurationHandle == 0x0D)
        #expect(heartRate?.endHandle == 0x0D)
        let control = database.characteristic(valueHandle: 0x0F)
        #expect(control?.configurationHandle == nil)
        #expect(control?.endHandle == 0x10)
        #expect(database.characteristic(configurationHandle: 0x09)?.uuid == .serviceChanged)
        #expect(database.characteristic(configurationHandle: 0x14)?.valueHandle == 0x13)
    }

    @Test func settingOptions() throws {
        let database = try GATTDatabase(services: [], deviceName: "x", appearance: 0x0341)
        #expect(database.attribute(3)?.value == [0x78])
        #expect(database.attribute(5)?.value == [0x41, 0x03])
        #expect(database.services.count == 2)
    }

    @Test func refusesADefinedConfigurationDescriptor() {
        let definition = GATTServiceDefinition(uuid: BluetoothUUID(uuid16: 0x180F), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid16: 0x2A19), properties: .notify,
                                         descriptors: [GATTDescriptorDefinition(uuid: .clientCharacteristicConfiguration)]),
        ])
        #expect(throws: GATTDatabaseError.configurationDescriptorDefined(characteristic: BluetoothUUID(uuid16: 0x2A19))) {
            try GATTDatabase(services: [definition])
        }
    }

    @Test func refusesMoreThanTheHandleSpace() {
        let many = (0..<0x8000).map { _ in
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid16: 0x2A19), properties: .read)
        }
        #expect(throws: GATTDatabaseError.tooManyAttributes(0x1000A)) {
            try GATTDatabase(services: [GATTServiceDefinition(uuid: BluetoothUUID(uuid16: 0x180F), characteristics: many)])
        }
    }

    @Test func permissionsFollowProperties() {
        #expect(GATTAttributePermissions(properties: [.read, .notify]) == .readable)
        #expect(GATTAttributePermissions(properties: .writeWithoutResponse) == .writable)
        #expect(GATTAttributePermissions(properties: [.read, .write]) == [.readable, .writable])
        #expect(GATTAttributePermissions(properties: .indicate) == [])
    }
}
