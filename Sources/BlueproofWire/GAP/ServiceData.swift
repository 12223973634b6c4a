/// Service Data (Core Supplement, Part A §1.11): a service UUID in 16-, 32- or 128-bit form
/// followed by data for that service.
public struct ServiceData: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var data: [UInt8]

    public init(uuid: BluetoothUUID, data: [UInt8]) {
        self.uuid = uuid
        self.data = data
    }

    /// The shortest AD type for ``uuid``: 16-bit, 32-bit or 128-bit service data.
    public var adType: AdvertisingDataType {
        if uuid.uuid16 != nil { return .serviceData16 }
        if uuid.uuid32 != nil { return .serviceData32 }
        return .serviceData128
    }

    /// Decodes AD Data of one of the three service data types; `baseOffset` places errors.
    public init(type: AdvertisingDataType, adData: [UInt8], baseOffset: Int = 0) throws(WireError) {
        var reader = ByteReader(adData, context: "Service Data", baseOffset: baseOffset)
        guard let width = type.serviceDataUUIDWidth else {
            throw reader.error("AD type", .invalidValue("\(type) is not a service data type"))
        }
        uuid = try BluetoothUUID(littleEndian: try reader.bytes(width, "UUID"))
        data = reader.rest()
    }

    /// The AD Data octets: the UUID in the width ``adType`` names, then the data.
    public var adData: [UInt8] {
        var writer = ByteWriter(capacity: 16 + data.count)
        switch adType {
        case .serviceData16: writer.append(uuid.littleEndianBytes)
        case .serviceData32: writer.u32(uuid.uuid32 ?? 0)
        default: writer.append(uuid.littleEndian128)
        }
        writer.append(data)
        return writer.bytes
    }
}
