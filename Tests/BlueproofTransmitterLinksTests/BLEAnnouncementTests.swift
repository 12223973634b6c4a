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

    @Test("scan response: manufacturer data, company 0xFFFF, the 16 user id bytes, 20 bytes")
    func scanResponseBytes() throws {
        let bytes = try BLEAnnouncement(user: Self.user).scanResponse()
        #expect(bytes == [0x13, 0xFF, 0xFF, 0xFF, 0x66, 0x55, 0xA1, 0x6C, 0x82, 0x09, 0x46, 0xC4,
                          0x9C, 0x51, 0x21, 0xD8, 0xDF, 0x3E, 0xFB, 0x95])
        #expect(BLEAnnouncement.user(in: bytes) == Self.user)
        // Another company, or a length other than 16: no user.
        #expect(BLEAnnouncement.user(in: [0x13, 0xFF, 0x4C, 0x00] + Self.user.bytes) == nil)
        #expect(BLEAnnouncement.user(in: [0x12, 0xFF, 0xFF, 0xFF] + Self.user.bytes.dropLast()) == nil)
        #expect(BLEAnnouncement.user(in: [0x05, 0xFF]) == nil)
    }

    @Test("scan response with a platform: one octet after the user id, 21 bytes; untrusted octets refused")
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

    @Test("sightings keep the platform a peer announced; an unknown octet is none")
    func platformSightings() throws {
        var sightings = BLESightings(service: BLELinkProfile.transmitterService)
        let address = BDAddress(littleEndian: [1, 2, 3, 4, 5, 6])
        let announcement = BLEAnnouncement(user: Self.user, platform: .android)
        _ = sightings.add(LEAdvertisement(eventType: .advInd, addressType: .publicDevice, address: address, rssi: nil,
                                          data: try announcement.advertisingData()))
        _ = sightings.add(LEAdvertisement(eventType: .scanRsp, addressType: .publicDevice, address: address, rssi: nil,
                                          data: try announcement.scanResponse()))
        #expect(sightings.platform(of: Self.user) == .android)
        _ = sightings.add(LEAdvertisement(eventType: .scanRsp, addressType: .publicDevice, address: address, rssi: nil,
                                          data: [0x14, 0xFF, 0xFF, 0xFF] + Self.user.bytes + [0x00]))
        #expect(sightings.platform(of: Self.user) == nil)
    }

    @Test("a peer is sighted once both its service and its user id were seen")
    func sightings() throws {
        var sightings = BLESightings(service: BLELinkProfile.transmitterService)
        let address = BDAddress(littleEndian: [1, 2, 3, 4, 5, 6])
        let announcement = BLEAnnouncement(user: Self.user)
        let response = LEAdvertisement(eventType: .scanRsp, addressType: .publicDevice, address: address, rssi: nil,
                                       data: try announcement.scanResponse())
        let advertising = LEAdvertisement(eventType: .advInd, addressType: .publicDevice, address: address, rssi: nil,
                                          data: try announcement.advertisingData())
        #expect(sightings.add(response) == nil)
        let seen = sightings.add(advertising)
        #expect(seen?.0 == Self.user)
        #expect(seen?.1 == BLEPeerAddress(address: address, type: .publicDevice))
        // Another device with the user id but not the service is not a peer.
        let other = BDAddress(littleEndian: [9, 9, 9, 9, 9, 9])
        var plain = response
        plain.address = other
        #expect(sightings.add(plain) == nil)
        #expect(sightings.add(LEAdvertisement(eventType: .advInd, addressType: .publicDevice, address: other, rssi: nil,
                                              data: [0x02, 0x01, 0x06])) == nil)
    }
}
