import Testing
import BlueproofWire

@Suite("GATT attribute values")
struct GATTValueTests {
    @Test func wellKnownUUIDs() {
        #expect(BluetoothUUID.primaryService.uuid16 == 0x2800)
        #expect(BluetoothUUID.secondaryService.uuid16 == 0x2801)
        #expect(BluetoothUUID.include.uuid16 == 0x2802)
        #expect(BluetoothUUID.characteristic.uuid16 == 0x2803)
        #expect(BluetoothUUID.clientCharacteristicConfiguration.uuid16 == 0x2902)
        #expect(BluetoothUUID.genericAccessService.uuid16 == 0x1800)
        #expect(BluetoothUUID.deviceName.uuid16 == 0x2A00)
        #expect(BluetoothUUID.appearance.uuid16 == 0x2A01)
        #expect(BluetoothUUID.genericAttributeService.uuid16 == 0x1801)
        #expect(BluetoothUUID.serviceChanged.uuid16 == 0x2A05)
    }

    @Test func properties() {
        let all: [GATTCharacteristicProperties] = [.broadcast, .read, .writeWithoutResponse, .write, .notify,
                                                  .indicate, .authenticatedSignedWrites, .extendedProperties]
        #expect(all.map(\.rawValue) == [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80])
        #expect(GATTCharacteristicProperties([.read, .notify]).description == "[read, notify]")
    }

    @Test func declarationWith16BitUUID() throws {
        let bytes = hexBytes("1a 0d00 372a")
        let declaration = try GATTCharacteristicDeclaration(bytes: bytes)
        #expect(declaration == GATTCharacteristicDeclaration(
            properties: [.read, .write, .notify], valueHandle: 0x000D, uuid: BluetoothUUID(uuid16: 0x2A37)))
        #expect(declaration.bytes == bytes)
    }

    @Test func declarationWith128BitUUID() throws {
        let bytes = hexBytes("0c 2000 61a907add1172fa1c44bf573f4390ae2")
        let declaration = try GATTCharacteristicDeclaration(bytes: bytes)
        #expect(declaration.properties == [.write, .writeWithoutResponse])
        #expect(declaration.valueHandle == 0x0020)
        #expect(declaration.uuid == BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961"))
        #expect(declaration.bytes == bytes)
    }

    @Test("refuses bad declarations", arguments: ["", "02", "02 03", "02 0300", "02 0300 00", "02 0300 0d180000"])
    func badDeclaration(text: String) {
        #expect(throws: WireError.self) { try GATTCharacteristicDeclaration(bytes: hexBytes(text)) }
    }

    @Test func configuration() throws {
        #expect(GATTClientCharacteristicConfiguration.notification.bytes == [0x01, 0x00])
        #expect(GATTClientCharacteristicConfiguration.indication.bytes == [0x02, 0x00])
        #expect(try GATTClientCharacteristicConfiguration(bytes: [0x03, 0x00]) == [.notification, .indication])
        #expect(try GATTClientCharacteristicConfiguration(bytes: [0x00, 0x00]) == [])
        #expect(throws: WireError.self) { try GATTClientCharacteristicConfiguration(bytes: [0x01]) }
        #expect(throws: WireError.self) { try GATTClientCharacteristicConfiguration(bytes: [0x01, 0x00, 0x00]) }
    }
}
