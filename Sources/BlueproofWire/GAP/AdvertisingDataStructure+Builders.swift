// Builders for the AD types blueproof writes (Core Supplement, Part A §1).

extension AdvertisingDataStructure {
    /// Flags (Core Supplement, Part A §1.3): one octet.
    public static func flags(_ flags: LEAdvertisingFlags) -> AdvertisingDataStructure {
        AdvertisingDataStructure(type: .flags, data: [flags.rawValue])
    }

    /// Service UUID lists (Core Supplement, Part A §1.1): one structure per width present, 16-bit
    /// then 32-bit then 128-bit, each UUID in its shortest form, in the order given.
    public static func serviceUUIDs(_ uuids: [BluetoothUUID], complete: Bool) -> [AdvertisingDataStructure] {
        var short: [UInt8] = [], medium: [UInt8] = [], long: [UInt8] = []
        for uuid in uuids {
            if uuid.uuid16 != nil {
                short += uuid.littleEndianBytes
            } else if let value = uuid.uuid32 {
                var writer = ByteWriter(capacity: 4)
                writer.u32(value)
                medium += writer.bytes
            } else {
                long += uuid.littleEndian128
            }
        }
        let types: [(AdvertisingDataType, AdvertisingDataType, [UInt8])] = [
            (.completeServiceUUIDs16, .incompleteServiceUUIDs16, short),
            (.completeServiceUUIDs32, .incompleteServiceUUIDs32, medium),
            (.completeServiceUUIDs128, .incompleteServiceUUIDs128, long),
        ]
        return types.compactMap { completeType, incompleteType, data in
            data.isEmpty ? nil : AdvertisingDataStructure(type: complete ? completeType : incompleteType, data: data)
        }
    }

    /// Shortened or Complete Local Name (Core Supplement, Part A §1.2), UTF-8.
    public static func localName(_ name: String, complete: Bool = true) -> AdvertisingDataStructure {
        AdvertisingDataStructure(type: complete ? .completeLocalName : .shortenedLocalName, data: Array(name.utf8))
    }

    /// Tx Power Level (Core Supplement, Part A §1.5), dBm.
    public static func txPowerLevel(_ dBm: Int8) -> AdvertisingDataStructure {
        AdvertisingDataStructure(type: .txPowerLevel, data: [UInt8(bitPattern: dBm)])
    }

    /// Service Data (Core Supplement, Part A §1.11) in the shortest UUID form.
    public static func serviceData(_ value: ServiceData) -> AdvertisingDataStructure {
        AdvertisingDataStructure(type: value.adType, data: value.adData)
    }

    /// Manufacturer Specific Data (Core Supplement, Part A §1.4).
    public static func manufacturerSpecificData(_ value: ManufacturerSpecificData) -> AdvertisingDataStructure {
        AdvertisingDataStructure(type: .manufacturerSpecificData, data: value.adData)
    }

    /// Appearance (Core Supplement, Part A §1.12): a 16-bit category and sub-category value.
    public static func appearance(_ value: UInt16) -> AdvertisingDataStructure {
        AdvertisingDataStructure(type: .appearance, data: [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)])
    }
}
