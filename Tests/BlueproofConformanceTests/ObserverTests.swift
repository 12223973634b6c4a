@testable import BlueproofConformance
import BlueproofCapture
import BlueproofHost
import BlueproofTransmitter
import BlueproofTransmitterLinks
import BlueproofWire
import Testing

/// The passive observer's record (CaptureEvidence+Observer.swift): what it keeps of the
/// advertising reports in a capture, and what links two runs.
@Suite("Passive observer")
struct ObserverTests {
    static let service: [UInt8] = [0x11, 0x07] + Array(repeating: 0xAB, count: 16)

    /// A capture of one advertiser at `address`: its advertising data (flags, service) and a scan
    /// response carrying `token` as manufacturer data of company 0xFFFF.
    static func capture(address: [UInt8], token: [UInt8]) throws -> CaptureEvidence {
        let scanResponse = try AdvertisingData([.manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: 0xFFFF, data: token))]).encodedLegacy()
        let reports: [HCILEAdvertisingReportEvent.Report] = [
            .init(eventType: .advInd, addressType: .randomDevice, address: BDAddress(littleEndian: address), data: [0x02, 0x01, 0x06] + service, rawRSSI: -40),
            .init(eventType: .scanRsp, addressType: .randomDevice, address: BDAddress(littleEndian: address), data: scanResponse, rawRSSI: -40),
        ]
        let packet = HCILEAdvertisingReportEvent(reports: reports).packet.packet
        return CaptureEvidence(path: "observer.pcap", records: [CaptureRecord(timestampMicros: 0, direction: .received, packet: packet)])
    }

    static let serviceList = ObservedIdentifier(kind: .advertised(.completeServiceUUIDs128), bytes: Array(service.dropFirst(2)))

    @Test("the address, the service list and the scan response's data are recorded; the flags are not")
    func recorded() throws {
        let identifiers = try Self.capture(address: [1, 2, 3, 4, 5, 6], token: [9, 9, 9]).observedIdentifiers()
        #expect(identifiers == [
            ObservedIdentifier(kind: .address, bytes: [1, 2, 3, 4, 5, 6]),
            Self.serviceList,
            ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 9, 9, 9]),
        ])
    }

    @Test("a profile's constant is TYPE:HEX; anything else is refused")
    func declared() {
        #expect(ObservedIdentifier(declared: "ff:ffff00") == ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 0x00]))
        #expect(ObservedIdentifier(declared: "07:" + String(repeating: "ab", count: 16)) == Self.serviceList)
        for bad in ["ff", "fff:00", "ff:0", "zz:00", "ff:00:11", ":00", "ff:0g"] {
            #expect(ObservedIdentifier(declared: bad) == nil, "\(bad)")
        }
        #expect(ObservedIdentifier(declared: "ff:") == ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: []))
    }

    @Test("what links two runs: declared constants name no one, an address always tracks, what a second user of the device shows alike is undecided")
    func classified() {
        let address = ObservedIdentifier(kind: .address, bytes: [1, 2, 3, 4, 5, 6])
        let token = ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 7])
        let device = ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFE, 0xFF, 1, 2, 3, 4, 5, 6])
        let platform = ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 0])
        let user1: Set = [address, Self.serviceList, platform, device, token]
        let user2: Set = [address, Self.serviceList, platform, device]
        let sameDevice = TrackingCases.shared(user1, user2)
        #expect(sameDevice == [Self.serviceList, platform, device], "the address is never shared")
        let declared: Set = [Self.serviceList, platform]
        let judged = TrackingCases.classify(user1, sameDevice: sameDevice, declared: declared)
        #expect(judged.tracked == [address, token])
        #expect(judged.undecided == [device])
        let clean = TrackingCases.classify([Self.serviceList, platform], sameDevice: sameDevice, declared: declared)
        #expect(clean.tracked.isEmpty && clean.undecided.isEmpty)
    }

    @Test("a stable id in the scan response links two runs; fresh addresses and tokens do not")
    func linking() throws {
        let first = try Self.capture(address: [1, 2, 3, 4, 5, 6], token: [7, 7]).observedIdentifiers()
        let stable = try Self.capture(address: [6, 5, 4, 3, 2, 1], token: [7, 7]).observedIdentifiers()
        let fresh = try Self.capture(address: [6, 5, 4, 3, 2, 1], token: [8, 8]).observedIdentifiers()
        #expect(CaptureEvidence.linking([first, stable]) == [ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 7, 7]), Self.serviceList])
        #expect(CaptureEvidence.linking([first, fresh]) == [Self.serviceList], "the service list alone (a profile declares it constant)")
    }

    // issue 15: user tracking by a passive scanner
    @Test("the scanner's view of an advertiser: only once it listed the service and sent both PDUs, with its latest scan response")
    func advertiserViews() throws {
        let service = BLELinkProfile.transmitterService
        let advertising = try BLEAnnouncement().advertisingData()
        func scanResponse(_ token: UInt8) throws -> [UInt8] {
            try AdvertisingData([.manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: 0xFFFF, data: [token]))]).encodedLegacy()
        }
        func report(_ type: LEAdvertisingReportEventType, _ address: UInt8, _ data: [UInt8]) -> LEAdvertisement {
            LEAdvertisement(eventType: type, addressType: .randomDevice, address: BDAddress(littleEndian: [address, 0, 0, 0, 0, 0xC0]), rssi: -40, data: data)
        }
        var views = AdvertiserViews(service: service)
        #expect(views.add(report(.scanRsp, 1, try scanResponse(7))) == nil)
        #expect(views.add(report(.advInd, 2, [0x02, 0x01, 0x06])) == nil)
        #expect(views.add(report(.scanRsp, 2, try scanResponse(9))) == nil, "an advertiser not listing the service is not the subject")
        #expect(views.add(report(.advInd, 1, advertising)) == [
            ObservedIdentifier(kind: .address, bytes: [1, 0, 0, 0, 0, 0xC0]),
            ObservedIdentifier(kind: .advertised(.completeServiceUUIDs128), bytes: service.littleEndianBytes),
            ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 7]),
        ])
        #expect(views.add(report(.scanRsp, 1, try scanResponse(8)))?.contains(ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 8])) == true)
        for address in 0..<AdvertiserViews.limit {
            _ = views.add(LEAdvertisement(eventType: .advInd, addressType: .randomDevice, address: BDAddress(littleEndian: [UInt8(address & 0xFF), UInt8(address >> 8), 1, 0, 0, 0xC0]), rssi: nil, data: advertising))
        }
        #expect(views.add(report(.scanRsp, 1, try scanResponse(9)))?.contains(ObservedIdentifier(kind: .advertised(.manufacturerSpecificData), bytes: [0xFF, 0xFF, 9])) == true,
                "an advertiser already kept is still followed past the limit")
        let late = try scanResponse(9)
        #expect(views.add(report(.advInd, 3, advertising)) == nil && views.add(report(.scanRsp, 3, late)) == nil,
                "a new advertiser past the limit is dropped")
    }
}
