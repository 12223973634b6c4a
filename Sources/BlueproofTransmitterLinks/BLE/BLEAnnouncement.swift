import BlueproofTransmitter
import BlueproofWire

/// What a BLE transmitter node advertises, within the 31 octets of each legacy PDU
/// (Core Vol 4, Part E §7.8.7–§7.8.8):
///
/// - advertising data (21 octets): Flags (LE General Discoverable, BR/EDR not supported) and
///   the complete list of 128-bit service UUIDs holding the transmitter service;
/// - scan response (5 octets): manufacturer specific data, company 0xFFFF, one octet: the
///   node's ``DevicePlatform`` or 0x00 for none (bridgefy-ios-sdk-readme.md, "Connections with
///   Android devices": a peer learns it before it chooses BLE or Wi-Fi peer-to-peer).
///
/// The user id is not on the air: a passive scanner could follow a user by it across restarts
/// and over time (breaking-bridgefy-2021, "Privacy"; docs/security.md, "Tracking by a passive
/// observer"). Peers learn it from the hellos of a connection. ``user`` puts it back, in the
/// layout of the first version (16 octets of user id before the platform octet, which is then
/// left out when none): the broken variant `stableAdvertisedUserId`, and old captures.
/// ``device`` adds a second manufacturer entry, company 0xFFFE, holding a device address: the
/// broken variant `stableDeviceIdentifier`.
public struct BLEAnnouncement: Hashable, Sendable {
    public var user: UserID?
    public var service: BluetoothUUID
    public var platform: DevicePlatform?
    public var device: BDAddress?

    /// The company of the ``device`` entry (a second test company beside 0xFFFF).
    public static let deviceCompany: UInt16 = 0xFFFE

    public init(user: UserID? = nil, service: BluetoothUUID = BLELinkProfile.transmitterService, platform: DevicePlatform? = nil,
                device: BDAddress? = nil) {
        self.user = user
        self.service = service
        self.platform = platform
        self.device = device
    }

    /// The advertising data bytes.
    public func advertisingData() throws(WireError) -> [UInt8] {
        var data = AdvertisingData([.flags(.generalDiscoverableLEOnly)])
        data.append(contentsOf: AdvertisingDataStructure.serviceUUIDs([service], complete: true))
        return try data.encodedLegacy()
    }

    /// The scan response bytes.
    public func scanResponse() throws(WireError) -> [UInt8] {
        var entries: [AdvertisingDataStructure] = [.manufacturerSpecificData(
            ManufacturerSpecificData(companyIdentifier: BLELinkProfile.testCompany, data: announcedData))]
        if let device {
            entries.append(.manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: Self.deviceCompany, data: device.littleEndianBytes)))
        }
        return try AdvertisingData(entries).encodedLegacy()
    }

    private var announcedData: [UInt8] {
        guard let user else { return [platform?.rawValue ?? 0] }
        return user.bytes + (platform.map { [$0.rawValue] } ?? [])
    }

    /// Whether advertising data lists `service`; data that does not decode does not.
    public static func advertises(_ service: BluetoothUUID, in bytes: [UInt8]) -> Bool {
        guard let data = try? AdvertisingData(bytes: bytes), let uuids = try? data.serviceUUIDs() else { return false }
        return uuids.contains(service)
    }

    /// The user id in a scan response (or advertising data): manufacturer data of company
    /// 0xFFFF holding exactly 16 bytes, or 17 with a platform octet; nil otherwise (the
    /// reference puts none on the air).
    public static func user(in bytes: [UInt8]) -> UserID? {
        guard let data = announcementData(in: bytes), data.count >= 16 else { return nil }
        return UserID(bytes: Array(data.prefix(16)))
    }

    /// Whether `bytes` hold an announcement (the manufacturer entry, in either layout).
    public static func announces(in bytes: [UInt8]) -> Bool { announcementData(in: bytes) != nil }

    /// The platform the announcement in `bytes` carries: nil when it carries none (0x00, or a
    /// user id alone); throws when its platform octet names no platform known here.
    public static func platform(in bytes: [UInt8]) throws(BLEAnnouncementError) -> DevicePlatform? {
        guard let data = announcementData(in: bytes), data.count != 16 else { return nil }
        let octet = data[data.count - 1]
        if data.count == 1, octet == 0 { return nil }
        guard let platform = DevicePlatform(rawValue: octet) else { throw .unknownPlatform(octet) }
        return platform
    }

    /// The data of the first manufacturer entry of company 0xFFFF that is 1, 16 or 17 bytes long.
    private static func announcementData(in bytes: [UInt8]) -> [UInt8]? {
        guard let data = try? AdvertisingData(bytes: bytes),
              let entries = try? data.manufacturerSpecificData else { return nil }
        return entries.first { $0.companyIdentifier == BLELinkProfile.testCompany && [1, 16, 17].contains($0.data.count) }.map { Array($0.data) }
    }
}

/// Why an announcement's platform was not taken (untrusted advertising data).
public enum BLEAnnouncementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The octet after the user id is not one of ``DevicePlatform``'s values (0x01, 0x02).
    case unknownPlatform(UInt8)

    public var description: String {
        switch self {
        case .unknownPlatform(let octet): "unknown platform octet 0x\(String(octet, radix: 16, uppercase: true)) (known: 0x00 none, 0x01 iOS, 0x02 Android)"
        }
    }
}
