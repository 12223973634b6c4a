// Typed reading of the AD types blueproof uses (Core Supplement, Part A §1). Errors carry the
// offset of the bad field within the encoded advertising data.

extension AdvertisingData {
    /// The first structure of `type` with its offset in the encoded form.
    private func first(_ type: AdvertisingDataType) -> (offset: Int, data: [UInt8])? {
        all { $0 == type }.first
    }

    /// Every structure whose type passes `filter`, with the offset of its AD Data.
    private func all(_ filter: (AdvertisingDataType) -> Bool) -> [(offset: Int, data: [UInt8])] {
        var offset = 0
        var found: [(Int, [UInt8])] = []
        for structure in structures {
            if filter(structure.type) { found.append((offset + 2, structure.data)) }
            offset += structure.encodedCount
        }
        return found
    }

    /// The Flags (Core Supplement, Part A §1.3); an empty Flags field means no flag set.
    /// Octets after the first are reserved for future flags and ignored.
    public var flags: LEAdvertisingFlags? {
        guard let found = first(.flags) else { return nil }
        return LEAdvertisingFlags(rawValue: found.data.first ?? 0)
    }

    /// The service UUIDs of every list (Core Supplement, Part A §1.1) in order; `complete`
    /// picks only complete (true) or incomplete (false) lists. A list whose length is not a
    /// multiple of its UUID width throws.
    public func serviceUUIDs(complete: Bool? = nil) throws(WireError) -> [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        var offset = 0
        for structure in structures {
            defer { offset += structure.encodedCount }
            guard let list = structure.type.serviceUUIDList, complete == nil || complete == list.complete else { continue }
            var reader = ByteReader(structure.data, context: "Advertising data: \(structure.type)", baseOffset: offset + 2)
            guard structure.data.count.isMultiple(of: list.width) else {
                throw WireError(offset: offset, context: "Advertising data: \(structure.type)",
                                reason: .invalidValue("\(structure.data.count) octets is not a whole number of \(list.width)-octet UUIDs"))
            }
            while !reader.isAtEnd {
                uuids.append(try BluetoothUUID(littleEndian: try reader.bytes(list.width, "UUID")))
            }
        }
        return uuids
    }

    /// The Complete Local Name, else the Shortened Local Name (Core Supplement, Part A §1.2).
    public var localName: String? {
        get throws(WireError) {
            if let name = try completeLocalName { return name }
            return try shortenedLocalName
        }
    }

    /// The Complete Local Name; invalid UTF-8 throws.
    public var completeLocalName: String? {
        get throws(WireError) { try name(.completeLocalName) }
    }

    /// The Shortened Local Name; invalid UTF-8 throws.
    public var shortenedLocalName: String? {
        get throws(WireError) { try name(.shortenedLocalName) }
    }

    private func name(_ type: AdvertisingDataType) throws(WireError) -> String? {
        guard let found = first(type) else { return nil }
        guard let text = String(validating: found.data, as: UTF8.self) else {
            throw WireError(offset: found.offset, context: "Advertising data: \(type)", reason: .invalidValue("not UTF-8"))
        }
        return text
    }

    /// The Tx Power Level in dBm (Core Supplement, Part A §1.5): exactly one octet.
    public var txPowerLevel: Int8? {
        get throws(WireError) {
            guard let found = first(.txPowerLevel) else { return nil }
            var reader = ByteReader(found.data, context: "Advertising data: Tx Power Level", baseOffset: found.offset)
            let value = try reader.i8("level")
            try reader.requireEnd()
            return value
        }
    }

    /// The Appearance (Core Supplement, Part A §1.12): exactly two octets.
    public var appearance: UInt16? {
        get throws(WireError) {
            guard let found = first(.appearance) else { return nil }
            var reader = ByteReader(found.data, context: "Advertising data: Appearance", baseOffset: found.offset)
            let value = try reader.u16("appearance")
            try reader.requireEnd()
            return value
        }
    }

    /// Every Service Data structure (16-, 32- and 128-bit), in order.
    public var serviceData: [ServiceData] {
        get throws(WireError) {
            var values: [ServiceData] = []
            var offset = 0
            for structure in structures {
                defer { offset += structure.encodedCount }
                guard structure.type.serviceDataUUIDWidth != nil else { continue }
                values.append(try ServiceData(type: structure.type, adData: structure.data, baseOffset: offset + 2))
            }
            return values
        }
    }

    /// Every Manufacturer Specific Data structure, in order.
    public var manufacturerSpecificData: [ManufacturerSpecificData] {
        get throws(WireError) {
            var values: [ManufacturerSpecificData] = []
            for found in all({ $0 == .manufacturerSpecificData }) {
                values.append(try ManufacturerSpecificData(adData: found.data, baseOffset: found.offset))
            }
            return values
        }
    }
}
