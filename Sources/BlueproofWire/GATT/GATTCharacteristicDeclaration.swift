/// The value of a characteristic declaration attribute (Core Vol 3, Part G §3.3.1,
/// Table 3.4): properties, the handle of the value attribute, and the characteristic UUID
/// (16 or 128 bits, so 5 or 19 octets in all).
public struct GATTCharacteristicDeclaration: Hashable, Sendable {
    public var properties: GATTCharacteristicProperties
    public var valueHandle: UInt16
    public var uuid: BluetoothUUID

    public init(properties: GATTCharacteristicProperties, valueHandle: UInt16, uuid: BluetoothUUID) {
        self.properties = properties
        self.valueHandle = valueHandle
        self.uuid = uuid
    }

    public init(bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes, context: "Characteristic Declaration")
        properties = GATTCharacteristicProperties(rawValue: try reader.u8("properties"))
        valueHandle = try reader.u16("value handle")
        guard reader.remaining == 2 || reader.remaining == 16 else {
            throw reader.error("UUID", .invalidValue("a UUID here has 2 or 16 octets, not \(reader.remaining)"))
        }
        uuid = try BluetoothUUID(littleEndian: reader.rest())
    }

    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 19)
        writer.u8(properties.rawValue)
        writer.u16(valueHandle)
        writer.append(uuid.littleEndianBytes)
        return writer.bytes
    }
}
