import BlueproofHost
import BlueproofTransmitter
import BlueproofWire

/// Where a nearby peer can be reached.
public struct BLEPeerAddress: Hashable, Sendable {
    public var address: BDAddress
    public var type: LEAddressType
}

/// Merges advertising reports and scan responses per advertiser, sans I/O: an advertiser is a
/// transmitter peer once its advertising data listed the service and its scan response (or
/// advertising data) carried a user id (``BLEAnnouncement``).
struct BLESightings: Sendable {
    private struct Advertiser: Sendable {
        var type: LEAddressType
        var hasService = false
        var user: UserID?
        var platform: DevicePlatform?
    }

    let service: BluetoothUUID
    private var advertisers: [BDAddress: Advertiser] = [:]

    init(service: BluetoothUUID) { self.service = service }

    /// Takes one report; returns the peer it shows, if the advertiser is one.
    mutating func add(_ report: LEAdvertisement) -> (UserID, BLEPeerAddress)? {
        var advertiser = advertisers[report.address] ?? Advertiser(type: report.addressType)
        if report.eventType != .scanRsp {
            advertiser.type = report.addressType
            advertiser.hasService = BLEAnnouncement.advertises(service, in: report.data)
        }
        if let user = BLEAnnouncement.user(in: report.data) {
            advertiser.user = user
            // An unknown platform octet counts as none announced (the peer is not taken for iOS).
            advertiser.platform = try? BLEAnnouncement.platform(in: report.data)
        }
        advertisers[report.address] = advertiser
        guard advertiser.hasService, let user = advertiser.user else { return nil }
        return (user, BLEPeerAddress(address: report.address, type: advertiser.type))
    }

    /// The platform `user` announced in its latest announcement, if any.
    func platform(of user: UserID) -> DevicePlatform? {
        advertisers.values.first { $0.user == user }?.platform
    }
}
