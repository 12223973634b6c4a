import BlueproofTransmitter
import BlueproofWire

/// What a BLE transmitter node advertises, within the 31 octets of each legacy PDU
/// (Core Vol 4, Part E §7.8.7–§7.8.8):
///
/// - advertising data (21 octets): Flags (LE General Discoverable, BR/EDR not supported) and
///   the complete list of 128-bit service UUIDs holding the transmitter service;
/// - scan response (20 octets, 21 with a platform): manufacturer specific data, company
///   0xFFFF, the 16 bytes of the local `UserID`, then, when the node announces one, its
///   ``DevicePlatform`` octet (bridgefy-ios-sdk-readme.md, "Connections with Android devices":
///   a peer learns it before it chooses BLE or Wi-Fi peer-to-peer).
public struct BLEAnnouncement: Hashable, Sendable {
    public var user: UserID
    public var service: BluetoothUUID
    public var platform: DevicePlatform?

    public init(user: UserID, service: BluetoothUUID = BLELinkProfile.transmitterService, platform: DevicePlatform? = nil) {
        self.user = user
        self.service = service
        self.platform = platform
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
            ManufacturerSpecificData(companyIdentifier: BLELinkProfile.testCompany, data: user.bytes + (platform.map { [$0.rawValue] } ?? [])))]).encodedLegacy()
    }

    /// Whether advertising data lists `service`; data that does not decode does not.
    public static func advertises(_ service: BluetoothUUID, in bytes: [UInt8]) -> Bool {
        guard let data = try? AdvertisingData(bytes: bytes), let uuids = try? data.serviceUUIDs() else { return false }
        return uuids.contains(service)
    }

    /// The user id in a scan response (or advertising data): manufacturer data of company
    /// 0xFFFF holding exactly 16 bytes, or 17 with a platform octet; nil otherwise.
    public static func user(in bytes: [UInt8]) -> UserID? {
        guard let data = announcementData(in: bytes) else { return nil }
        return UserID(bytes: Array(data.prefix(16)))
    }

    /// The platform the announcement in `bytes` carries: nil when it carries a user id alone
    /// (or none); throws when its platform octet names no platform known here.
    public static func platform(in bytes: [UInt8]) throws(BLEAnnouncementError) -> DevicePlatform? {
        guard let data = announcementData(in: bytes), data.count == 17 else { return nil }
        guard let platform = DevicePlatform(rawValue: data[16]) else { throw .unknownPlatform(data[16]) }
        return platform
    }

    /// The data of the first manufacturer entry of company 0xFFFF that is 16 or 17 bytes long.
    private static func announcementData(in bytes: [UInt8]) -> [UInt8]? {
        guard let data = try? AdvertisingData(bytes: bytes),
              let entries = try? data.manufacturerSpecificData else { return nil }
        return entries.first { $0.companyIdentifier == BLELinkProfile.testCompany && (16...17).contains($0.data.count) }.map { Array($0.data) }
    }
}

/// Why an announcement's platform was not taken (untrusted advertising data).
public enum BLEAnnouncementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The octet after the user id is not one of ``DevicePlatform``'s values (0x01, 0x02).
    case unknownPlatform(UInt8)

    public var description: String {
        switch self {
        case .unknownPlatform(let octet): "unknown platform octet 0x\(String(octet, radix: 16, uppercase: true)) (known: 0x01 iOS, 0x02 Android)"
        }
    }
}
