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
        /// When it was last heard or named, as a count of ``add(_:)`` and ``identify(_:as:)`` calls.
        var heard: UInt64 = 0
    }

    let service: BluetoothUUID
    private var advertisers: [BDAddress: Advertiser] = [:]
    private var calls: UInt64 = 0
    /// Advertisers kept at most. Only transmitter nodes are kept (their advertising data lists
    /// the service), but anyone on the air can advertise it from as many addresses as it likes:
    /// past the limit the one heard longest ago that no hello named makes room, so memory stays
    /// bounded and a flood of addresses can neither keep out a new peer nor push out a named one.
    static let limit = 1_024

    init(service: BluetoothUUID) { self.service = service }

    /// How many advertisers are kept.
    var count: Int { advertisers.count }

    /// Takes one report; returns the advertiser's address and its user, if known, once it is a
    /// transmitter node. Reports of an advertiser not kept are taken only when its advertising
    /// data lists the service (a scan response alone is not).
    mutating func add(_ report: LEAdvertisement) -> (address: BLEPeerAddress, user: UserID?)? {
        calls &+= 1
        var advertiser: Advertiser
        if let known = advertisers[report.address] {
            advertiser = known
        } else {
            guard report.eventType != .scanRsp, BLEAnnouncement.advertises(service, in: report.data) else { return nil }
            makeRoom()
            advertiser = Advertiser(type: report.addressType)
        }
        advertiser.heard = calls
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
        calls &+= 1
        for (other, advertiser) in advertisers where advertiser.user == user && other != address.address {
            advertisers[other] = nil
        }
        if advertisers[address.address] == nil { makeRoom() }
        advertisers[address.address, default: Advertiser(type: address.type)].user = user
        advertisers[address.address]?.heard = calls
    }

    /// At ``limit``, forgets the advertiser heard longest ago that no hello named, or the one
    /// heard longest ago when every one is named.
    private mutating func makeRoom() {
        guard advertisers.count >= Self.limit else { return }
        var oldestUnnamed: (address: BDAddress, heard: UInt64)?
        var oldest: (address: BDAddress, heard: UInt64)?
        for (address, advertiser) in advertisers {
            if advertiser.user == nil, advertiser.heard < oldestUnnamed?.heard ?? .max { oldestUnnamed = (address, advertiser.heard) }
            if advertiser.heard < oldest?.heard ?? .max { oldest = (address, advertiser.heard) }
        }
        if let victim = oldestUnnamed ?? oldest { advertisers[victim.address] = nil }
    }

    /// The user known at `address`, if any.
    func user(at address: BDAddress) -> UserID? { advertisers[address]?.user }

    /// The platform `user` announced in its latest announcement, if any.
    func platform(of user: UserID) -> DevicePlatform? {
        advertisers.values.first { $0.user == user }?.platform
    }
}
