import BlueproofTransmitter
import BlueproofWire

/// What a BLE transmitter node advertises, within the 31 octets of each legacy PDU
/// (Core Vol 4, Part E §7.8.7–§7.8.8):
///
/// - advertising data (21 octets): Flags (LE General Discoverable, BR/EDR not supported) and
///   the complete list of 128-bit service UUIDs holding the transmitter service;
/// - scan response (20 octets): manufacturer specific data, company 0xFFFF, the 16 bytes of
///   the local `UserID`.
public struct BLEAnnouncement: Hashable, Sendable {
    public var user: UserID
    public var service: BluetoothUUID

    public init(user: UserID, service: BluetoothUUID = BLELinkProfile.transmitterService) {
        self.user = user
        self.service = service
    }

    /// The advertising data bytes.
    public func advertisingData() throws(WireError) -> [UInt8] {
        var data = AdvertisingData([.flags(.generalDiscoverableLEOnly)])
        data.append(contentsOf: AdvertisingDataStructure.serviceUUIDs([service], complete: true))
        return try data.encodedLegacy()
    }

    /// The scan response bytes.
    public func scanResponse() throws(WireError) -> [UInt8] {
        try AdvertisingData([.manufacturerSpecificData(
            ManufacturerSpecificData(companyIdentifier: BLELinkProfile.testCompany, data: user.bytes))]).encodedLegacy()
    }

    /// Whether advertising data lists `service`; data that does not decode does not.
    public static func advertises(_ service: BluetoothUUID, in bytes: [UInt8]) -> Bool {
        guard let data = try? AdvertisingData(bytes: bytes), let uuids = try? data.serviceUUIDs() else { return false }
        return uuids.contains(service)
    }

    /// The user id in a scan response (or advertising data): manufacturer data of company
    /// 0xFFFF holding exactly 16 bytes; nil otherwise.
    public static func user(in bytes: [UInt8]) -> UserID? {
        guard let data = try? AdvertisingData(bytes: bytes),
              let entries = try? data.manufacturerSpecificData else { return nil }
        for entry in entries where entry.companyIdentifier == BLELinkProfile.testCompany {
            if let user = UserID(bytes: entry.data) { return user }
        }
        return nil
    }
}
