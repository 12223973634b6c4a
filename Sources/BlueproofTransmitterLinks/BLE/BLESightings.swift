import BlueproofHost
import BlueproofTransmitter
import BlueproofWire

/// Where a nearby peer can be reached.
public struct BLEPeerAddress: Hashable, Sendable {
    public var address: BDAddress
    public var type: LEAddressType
}

/// Merges advertising reports and scan responses per advertiser, sans I/O: an advertiser is a
/// transmitter node once its advertising data listed the service. Its user is not on the air
/// (docs/security.md, "Tracking by a passive observer"): it is learnt from the hellos of a
/// connection with it (``identify(_:as:)``), and only for the address it was learnt at, so a
/// peer that moved to a new random address is an unknown node again until a connection names it.
struct BLESightings: Sendable {
    private struct Advertiser: Sendable {
        var type: LEAddressType
        var hasService = false
        var user: UserID?
        var platform: DevicePlatform?
    }

    let service: BluetoothUUID
    private var advertisers: [BDAddress: Advertiser] = [:]
    /// Advertisers kept at most: anyone on the air can send reports from as many addresses as
    /// it likes, so further ones are dropped and memory stays bounded.
    static let limit = 1_024

    init(service: BluetoothUUID) { self.service = service }

    /// Takes one report; returns the advertiser's address and its user, if known, once it is a
    /// transmitter node.
    mutating func add(_ report: LEAdvertisement) -> (address: BLEPeerAddress, user: UserID?)? {
        guard advertisers[report.address] != nil || advertisers.count < Self.limit else { return nil }
        var advertiser = advertisers[report.address] ?? Advertiser(type: report.addressType)
        if report.eventType != .scanRsp {
            advertiser.type = report.addressType
            advertiser.hasService = BLEAnnouncement.advertises(service, in: report.data)
        }
        // An unknown platform octet counts as none announced (the peer is not taken for iOS).
        if BLEAnnouncement.announces(in: report.data) { advertiser.platform = try? BLEAnnouncement.platform(in: report.data) }
        advertisers[report.address] = advertiser
        guard advertiser.hasService else { return nil }
        return (BLEPeerAddress(address: report.address, type: advertiser.type), advertiser.user)
    }

    /// Names the node at `address` (its hello said so); any other address of that user is
    /// forgotten (the peer moved on from it).
    mutating func identify(_ address: BLEPeerAddress, as user: UserID) {
        for (other, advertiser) in advertisers where advertiser.user == user && other != address.address {
            advertisers[other] = nil
        }
        guard advertisers[address.address] != nil || advertisers.count < Self.limit else { return }
        advertisers[address.address, default: Advertiser(type: address.type)].user = user
    }

    /// The user known at `address`, if any.
    func user(at address: BDAddress) -> UserID? { advertisers[address]?.user }

    /// The platform `user` announced in its latest announcement, if any.
    func platform(of user: UserID) -> DevicePlatform? {
        advertisers.values.first { $0.user == user }?.platform
    }
}
