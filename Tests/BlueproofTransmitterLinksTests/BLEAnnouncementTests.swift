import BlueproofHost
import BlueproofTransmitter
@testable import BlueproofTransmitterLinks
import BlueproofWire
import Foundation
import Testing

@Suite("BLE announcement")
struct BLEAnnouncementTests {
    static let user = UserID("6655a16c-8209-46c4-9c51-21d8df3efb95")!

    /// The service UUID 5B1E7A00-0B1E-4F5A-9C3D-7E2A61B0F001, little-endian as AD carries it.
    static let serviceLE: [UInt8] = [0x01, 0xF0, 0xB0, 0x61, 0x2A, 0x7E, 0x3D, 0x9C, 0x5A, 0x4F, 0x1E, 0x0B, 0x00, 0x7A, 0x1E, 0x5B]

    @Test("advertising data: flags + complete 128-bit service list, 21 bytes")
    func advertisingBytes() throws {
        let bytes = try BLEAnnouncement(user: Self.user).advertisingData()
        #expect(bytes == [0x02, 0x01, 0x06, 0x11, 0x07] + Self.serviceLE)
        #expect(bytes.count == 21)
        #expect(BLEAnnouncement.advertises(BLELinkProfile.transmitterService, in: bytes))
        #expect(!BLEAnnouncement.advertises(BLELinkProfile.frameCharacteristic, in: bytes))
    }

    @Test("scan response: manufacturer data, company 0xFFFF, one platform octet (0x00 none), 5 bytes; no user id on the air")
    func scanResponseBytes() throws {
        let bytes = try BLEAnnouncement().scanResponse()
        #expect(bytes == [0x04, 0xFF, 0xFF, 0xFF, 0x00])
        #expect(BLEAnnouncement.user(in: bytes) == nil)
        #expect(try BLEAnnouncement.platform(in: bytes) == nil)
        #expect(try BLEAnnouncement.platform(in: try BLEAnnouncement(platform: .ios).scanResponse()) == .ios)
        #expect(try BLEAnnouncement(platform: .android).scanResponse() == [0x04, 0xFF, 0xFF, 0xFF, 0x02])
        #expect(throws: BLEAnnouncementError.unknownPlatform(0x7F)) { try BLEAnnouncement.platform(in: [0x04, 0xFF, 0xFF, 0xFF, 0x7F]) }
    }

    @Test("announcing the user (the first version's layout, the stableAdvertisedUserId variant): the 16 user id bytes, 20 bytes")
    func announcedUserBytes() throws {
        let bytes = try BLEAnnouncement(user: Self.user).scanResponse()
        #expect(bytes == [0x13, 0xFF, 0xFF, 0xFF, 0x66, 0x55, 0xA1, 0x6C, 0x82, 0x09, 0x46, 0xC4,
                          0x9C, 0x51, 0x21, 0xD8, 0xDF, 0x3E, 0xFB, 0x95])
        #expect(BLEAnnouncement.user(in: bytes) == Self.user)
        // Another company, or a length other than 16: no user.
        #expect(BLEAnnouncement.user(in: [0x13, 0xFF, 0x4C, 0x00] + Self.user.bytes) == nil)
        #expect(BLEAnnouncement.user(in: [0x12, 0xFF, 0xFF, 0xFF] + Self.user.bytes.dropLast()) == nil)
        #expect(BLEAnnouncement.user(in: [0x05, 0xFF]) == nil)
    }

    @Test("announced user with a platform: one octet after the user id, 21 bytes; untrusted octets refused")
    func platformBytes() throws {
        let ios = try BLEAnnouncement(user: Self.user, platform: .ios).scanResponse()
        #expect(ios == [0x14, 0xFF, 0xFF, 0xFF] + Self.user.bytes + [0x01])
        #expect(BLEAnnouncement.user(in: ios) == Self.user)
        #expect(try BLEAnnouncement.platform(in: ios) == .ios)
        let android = try BLEAnnouncement(user: Self.user, platform: .android).scanResponse()
        #expect(try BLEAnnouncement.platform(in: android) == .android)
        // None announced: the user alone.
        #expect(try BLEAnnouncement.platform(in: try BLEAnnouncement(user: Self.user).scanResponse()) == nil)
        // An octet naming no platform: the user is still read, the platform is refused.
        let unknown: [UInt8] = [0x14, 0xFF, 0xFF, 0xFF] + Self.user.bytes + [0x7F]
        #expect(BLEAnnouncement.user(in: unknown) == Self.user)
        #expect(throws: BLEAnnouncementError.unknownPlatform(0x7F)) { try BLEAnnouncement.platform(in: unknown) }
        // 18 bytes of data: neither a user nor a platform.
        let long: [UInt8] = [0x15, 0xFF, 0xFF, 0xFF] + Self.user.bytes + [0x01, 0x01]
        #expect(BLEAnnouncement.user(in: long) == nil)
        #expect(try BLEAnnouncement.platform(in: long) == nil)
    }

    @Test("sightings keep the platform a node announced, for its user once named; an unknown octet is none")
    func platformSightings() throws {
        var sightings = BLESightings(service: BLELinkProfile.transmitterService)
        let address = BDAddress(littleEndian: [1, 2, 3, 4, 5, 6])
        let announcement = BLEAnnouncement(platform: .android)
        _ = sightings.add(LEAdvertisement(eventType: .advInd, addressType: .randomDevice, address: address, rssi: nil,
                                          data: try announcement.advertisingData()))
        _ = sightings.add(LEAdvertisement(eventType: .scanRsp, addressType: .randomDevice, address: address, rssi: nil,
                                          data: try announcement.scanResponse()))
        #expect(sightings.platform(of: Self.user) == nil, "not named yet")
        sightings.identify(BLEPeerAddress(address: address, type: .randomDevice), as: Self.user)
        #expect(sightings.platform(of: Self.user) == .android)
        _ = sightings.add(LEAdvertisement(eventType: .scanRsp, addressType: .randomDevice, address: address, rssi: nil,
                                          data: [0x04, 0xFF, 0xFF, 0xFF, 0x7F]))
        #expect(sightings.platform(of: Self.user) == nil)
    }

    @Test("a node of the service is sighted by its address, unnamed; a hello names it there; a user id on the air names nobody")
    func sightings() throws {
        var sightings = BLESightings(service: BLELinkProfile.transmitterService)
        let address = BDAddress(littleEndian: [1, 2, 3, 4, 5, 6])
        let peer = BLEPeerAddress(address: address, type: .randomDevice)
        let announcement = BLEAnnouncement(user: Self.user)
        let response = LEAdvertisement(eventType: .scanRsp, addressType: .randomDevice, address: address, rssi: nil,
                                       data: try announcement.scanResponse())
        let advertising = LEAdvertisement(eventType: .advInd, addressType: .randomDevice, address: address, rssi: nil,
                                          data: try announcement.advertisingData())
        #expect(sightings.add(response) == nil)
        let seen = sightings.add(advertising)
        #expect(seen?.address == peer)
        #expect(seen?.user == nil, "the announced user id is not taken: anyone can claim one")
        sightings.identify(peer, as: Self.user)
        #expect(sightings.add(advertising)?.user == Self.user)
        // The user moves to a new address: named there, forgotten at the old one.
        let moved = BLEPeerAddress(address: BDAddress(littleEndian: [7, 7, 7, 7, 7, 7]), type: .randomDevice)
        sightings.identify(moved, as: Self.user)
        #expect(sightings.user(at: address) == nil)
        #expect(sightings.user(at: moved.address) == Self.user)
        // Another device without the service is not a node.
        let other = BDAddress(littleEndian: [9, 9, 9, 9, 9, 9])
        var plain = response
        plain.address = other
        #expect(sightings.add(plain) == nil)
        #expect(sightings.add(LEAdvertisement(eventType: .advInd, addressType: .publicDevice, address: other, rssi: nil,
                                              data: [0x02, 0x01, 0x06])) == nil)
    }

    @Test("sightings keep at most 1,024 advertisers: a new one takes the place of the unnamed one heard longest ago, a named one stays, an advertiser without the service is not kept")
    func sightingsBound() throws {
        var sightings = BLESightings(service: BLELinkProfile.transmitterService)
        let data = try BLEAnnouncement().advertisingData()
        func address(_ index: Int) -> BDAddress { BDAddress(littleEndian: [UInt8(index & 0xFF), UInt8(index >> 8), 0, 0, 0, 0x01]) }
        func report(_ index: Int) -> LEAdvertisement {
            LEAdvertisement(eventType: .advInd, addressType: .randomDevice, address: address(index), rssi: nil, data: data)
        }
        let named = BLEPeerAddress(address: address(0), type: .randomDevice)
        for index in 0..<BLESightings.limit { #expect(sightings.add(report(index)) != nil) }
        sightings.identify(named, as: Self.user)
        #expect(sightings.count == BLESightings.limit)
        // A flood of new addresses: each is taken, the count stays at the limit, the named node stays.
        for index in BLESightings.limit..<(3 * BLESightings.limit) {
            #expect(sightings.add(report(index)) != nil, "a new node past the limit is still sighted")
        }
        #expect(sightings.count == BLESightings.limit)
        #expect(sightings.user(at: named.address) == Self.user, "the named node outlived the flood")
        #expect(sightings.add(report(0))?.user == Self.user)
        // The one heard longest ago went first: the first of the flood is gone, the last is kept.
        #expect(sightings.add(LEAdvertisement(eventType: .scanRsp, addressType: .randomDevice, address: address(BLESightings.limit),
                                              rssi: nil, data: try BLEAnnouncement().scanResponse())) == nil)
        #expect(sightings.add(LEAdvertisement(eventType: .scanRsp, addressType: .randomDevice, address: address(3 * BLESightings.limit - 1),
                                              rssi: nil, data: try BLEAnnouncement().scanResponse())) != nil)
        // Advertisers without the service take no place.
        for index in 0..<BLESightings.limit {
            _ = sightings.add(LEAdvertisement(eventType: .advInd, addressType: .publicDevice, address: address(10_000 + index),
                                              rssi: nil, data: [0x02, 0x01, 0x06]))
        }
        #expect(sightings.add(report(3 * BLESightings.limit - 1)) != nil)
        #expect(sightings.count == BLESightings.limit)
        #expect(sightings.user(at: named.address) == Self.user)
    }
}
