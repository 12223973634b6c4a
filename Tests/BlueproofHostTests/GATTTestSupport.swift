import BlueproofHost
import BlueproofWire

/// Hex text to bytes; a malformed literal is a bug in the test.
func attBytes(_ text: String) -> [UInt8] {
    guard let value = bytes(fromHex: text) else { fatalError("bad hex literal in test: \(text)") }
    return value
}

/// Hex text to an ATT PDU; a literal that does not decode is a bug in the test.
func pdu(_ text: String) -> ATTPDU {
    do {
        return try ATTPDU(bytes: attBytes(text))
    } catch {
        fatalError("bad ATT PDU literal in test: \(text): \(error)")
    }
}

/// The database every GATT test runs against, with fixed handles:
///
/// | handle | attribute |
/// |---|---|
/// | 0x0001–0x0005 | GAP: service, Device Name "blueproof" (0x0003), Appearance 0x0000 (0x0005) |
/// | 0x0006–0x0009 | GATT: service, Service Changed (0x0008, indicate only), its CCCD (0x0009) |
/// | 0x000A | «Primary Service» 0x180D |
/// | 0x000B / 0x000C / 0x000D | 0x2A37 [read, notify] declaration / value 00 48 / CCCD |
/// | 0x000E / 0x000F | 0x2A39 [read, write] declaration / value 01 |
/// | 0x0010 | descriptor 0x2901 "rate" (readable) |
/// | 0x0011 | «Primary Service» E20A39F4-73F5-4BC4-A12F-17D1AD07A961 |
/// | 0x0012 / 0x0013 / 0x0014 | 128-bit characteristic [writeWithoutResponse, write, indicate], value writable only / CCCD |
/// | 0x0015 / 0x0016 | 0x2A19 [read] declaration / 40-octet value 00…27 |
enum KnownDatabase {
    static let serviceUUID = BluetoothUUID("E20A39F4-73F5-4BC4-A12F-17D1AD07A961")!
    static let characteristicUUID = BluetoothUUID("08590F7E-DB05-467E-8757-72F6FAEB13D4")!
    static let longValue = (0..<40).map { UInt8($0) }

    static let definitions: [GATTServiceDefinition] = [
        GATTServiceDefinition(uuid: BluetoothUUID(uuid16: 0x180D), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid16: 0x2A37), properties: [.read, .notify],
                                         value: [0x00, 0x48]),
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid16: 0x2A39), properties: [.read, .write], value: [0x01],
                                         descriptors: [GATTDescriptorDefinition(uuid: BluetoothUUID(uuid16: 0x2901),
                                                                                value: Array("rate".utf8))]),
        ]),
        GATTServiceDefinition(uuid: serviceUUID, characteristics: [
            GATTCharacteristicDefinition(uuid: characteristicUUID,
                                         properties: [.writeWithoutResponse, .write, .indicate]),
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid16: 0x2A19), properties: .read, value: longValue),
        ]),
    ]

    static func database() -> GATTDatabase {
        do {
            return try GATTDatabase(services: definitions)
        } catch {
            fatalError("known database: \(error)")
        }
    }

    static func server() -> GATTServer { GATTServer(database: database()) }
}
