/// An iBeacon advertisement: Apple manufacturer specific data (company 0x004C) holding type
/// 0x02, length 0x15, then a proximity UUID, major and minor (big-endian, unlike the rest of
/// Bluetooth) and the measured power at 1 m as a signed dBm octet.
///
/// Carried in a Manufacturer Specific Data structure (Core Supplement, Part A §1.4).
public struct IBeacon: Hashable, Sendable, CustomStringConvertible {
    public var proximityUUID: BluetoothUUID
    public var major: UInt16
    public var minor: UInt16
    /// Measured power: RSSI at 1 m, dBm.
    public var measuredPower: Int8

    /// The iBeacon type octet after the company identifier.
    public static let beaconType: UInt8 = 0x02
    /// The octets after the type and length octets: UUID, major, minor, measured power.
    public static let beaconLength: UInt8 = 0x15

    public init(proximityUUID: BluetoothUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// Decodes manufacturer data; throws unless it is Apple's, of type 0x02, length 0x15,
    /// with exactly 21 octets following.
    public init(manufacturerData: ManufacturerSpecificData) throws(WireError) {
        guard manufacturerData.companyIdentifier == ManufacturerSpecificData.appleCompanyIdentifier else {
            throw WireError(offset: 0, context: "iBeacon: company identifier",
                            reason: .invalidValue("0x\(hex(manufacturerData.companyIdentifier)) is not Apple (0x004c)"))
        }
        var reader = ByteReader(manufacturerData.data, context: "iBeacon", baseOffset: 2)
        let typeOffset = reader.offset
        let type = try reader.u8("type")
        guard type == Self.beaconType else {
            throw WireError(offset: typeOffset, context: "iBeacon: type", reason: .invalidValue("0x\(hex(type)) is not 0x02"))
        }
        let lengthOffset = reader.offset
        let length = try reader.u8("length")
        guard length == Self.beaconLength, reader.remaining == Int(length) else {
            throw WireError(offset: lengthOffset, context: "iBeacon: length",
                            reason: .lengthMismatch(declared: Int(length), actual: reader.remaining))
        }
        proximityUUID = BluetoothUUID(bigEndian: try reader.bytes(16, "proximity UUID"))
        let majorBytes = try reader.bytes(2, "major")
        let minorBytes = try reader.bytes(2, "minor")
        major = UInt16(majorBytes[0]) << 8 | UInt16(majorBytes[1])
        minor = UInt16(minorBytes[0]) << 8 | UInt16(minorBytes[1])
        measuredPower = try reader.i8("measured power")
    }

    /// The first iBeacon among the advertising data's manufacturer data, nil when none is one.
    /// Malformed manufacturer data of other companies does not stop the search.
    public init?(advertisingData: AdvertisingData) {
        for structure in advertisingData.structures where structure.type == .manufacturerSpecificData {
            guard let data = try? ManufacturerSpecificData(adData: structure.data),
                  let beacon = try? IBeacon(manufacturerData: data) else { continue }
            self = beacon
            return
        }
        return nil
    }

    /// The manufacturer specific data that carries this beacon.
    public var manufacturerData: ManufacturerSpecificData {
        var data: [UInt8] = [Self.beaconType, Self.beaconLength]
        data += proximityUUID.bigEndianBytes
        data += [UInt8(major >> 8), UInt8(truncatingIfNeeded: major), UInt8(minor >> 8), UInt8(truncatingIfNeeded: minor)]
        data.append(UInt8(bitPattern: measuredPower))
        return ManufacturerSpecificData(companyIdentifier: ManufacturerSpecificData.appleCompanyIdentifier, data: data)
    }

    /// The usual iBeacon advertising data: Flags (LE General Discoverable, BR/EDR Not
    /// Supported) then the beacon; 30 octets, so it fits legacy advertising.
    public var advertisingData: AdvertisingData {
        AdvertisingData([.flags(.generalDiscoverableLEOnly), .manufacturerSpecificData(manufacturerData)])
    }

    /// The proximity UUID as 36 upper-case characters with dashes (never the 16-bit short form).
    public var proximityUUIDString: String {
        let text = hex(proximityUUID.bigEndianBytes).uppercased()
        var out = ""
        for (index, character) in text.enumerated() {
            if [8, 12, 16, 20].contains(index) { out.append("-") }
            out.append(character)
        }
        return out
    }

    /// The Bluenet beacon id (bluenet-lib-ios README, iBeaconPacket `idString`): the UUID, then
    /// `.Maj:` and the decimal major, then `.Min:` and the decimal minor, e.g.
    /// `E20A39F4-73F5-4BC4-A12F-17D1AD07A961.Maj:1.Min:2`.
    public var idString: String {
        "\(proximityUUIDString).Maj:\(major).Min:\(minor)"
    }

    public var description: String { "iBeacon \(idString) measured power \(measuredPower) dBm" }
}
