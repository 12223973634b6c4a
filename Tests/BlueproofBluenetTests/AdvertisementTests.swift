import BlueproofBluenet
import BlueproofWire
import Foundation
import Testing

@Suite("Bluenet advertisements and scan filters")
struct AdvertisementTests {
    static let state = CrownstoneServiceData(crownstoneId: 513, crownstoneStateId: 7, switchState: 100, eventBitmask: 0x81,
                                             reserved: 0, powerUsage: -1200, accumulatedEnergy: 123_456)

    static func crownstoneReport(_ data: [UInt8] = state.bytes) -> BluenetScanReport {
        BluenetScanReport(handle: "cs-1", rssi: -60,
                          advertisingData: AdvertisingData([.flags(.generalDiscoverableLEOnly)]),
                          scanResponse: AdvertisingData([.localName("CS"), .serviceData(ServiceData(uuid: CrownstoneServiceData.plugServiceUUID, data: data))]))
    }

    static let heartRate = BluetoothUUID(uuid16: 0x180D)
    static let otherReport = BluenetScanReport(
        handle: "hr", rssi: -70,
        advertisingData: AdvertisingData(AdvertisingDataStructure.serviceUUIDs([heartRate], complete: true)
            + [.serviceData(ServiceData(uuid: BluetoothUUID(uuid16: 0xFEAA), data: [0, 127, 128, 255]))]))

    /// BLN/SCAN/BV-08: the 16 octets decode into the seven documented fields (little-endian).
    @Test func crownstoneServiceDataDecodes() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x07, 0x00, 100, 0x81, 0, 0, 0x50, 0xFB, 0xFF, 0xFF, 0x40, 0xE2, 0x01, 0x00]
        let decoded = try CrownstoneServiceData(bytes: bytes)
        #expect(decoded == Self.state)
        #expect(decoded.bytes == bytes)
    }

    /// BLN/SCAN/BV-08: any other length is a typed refusal, never a crash.
    @Test func crownstoneServiceDataOfTheWrongLengthIsRefused() {
        for length in [0, 1, 15, 17, 255] {
            #expect(throws: BluenetError.serviceDataLength(actual: length, expected: 16)) {
                try CrownstoneServiceData(bytes: [UInt8](repeating: 0xFF, count: length))
            }
        }
    }

    /// BLN/SCAN/BV-08, BV-07: the Crownstone JSON has the document's shape under the service UUID.
    @Test func crownstoneJSONShape() throws {
        let advertisement = BluenetAdvertisement(report: Self.crownstoneReport())
        #expect(advertisement.isCrownstone)
        let text = advertisement.stringify()
        #expect(text == #"{"handle":"cs-1","name":"CS","rssi":-60,"serviceData":{"C001":{"accumulatedEnergy":123456,"#
            + #""crownstoneId":"513","crownstoneStateId":"7","eventBitmask":129,"powerUsage":-1200,"reserved":0,"switchState":100}}}"#)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["rssi"] as? Int == -60)
    }

    /// BLN/SCAN/BV-06: another device's service data is its octets as values 0-255.
    @Test func otherServiceDataIsByteValues() {
        let advertisement = BluenetAdvertisement(report: Self.otherReport)
        #expect(advertisement.serviceData == .bytes([0, 127, 128, 255]))
        #expect(advertisement.stringify() == #"{"handle":"hr","name":"","rssi":-70,"serviceData":[0,127,128,255]}"#)
    }

    /// BLN/SCAN/BV-08: a Crownstone UUID with a short packet stays bytes and says why.
    @Test func shortCrownstoneDataIsKeptAsBytesWithTheReason() {
        let advertisement = BluenetAdvertisement(report: Self.crownstoneReport([1, 2, 3]))
        #expect(advertisement.serviceData == .bytes([1, 2, 3]))
        #expect(advertisement.serviceDataError == .serviceDataLength(actual: 3, expected: 16))
    }

    /// BLN/SCAN/BV-01..04: all, Crownstones only, a service only; nothing after stop.
    @Test func filtersAndStop() {
        var scanner = BluenetScanner()
        final class Seen { var handles: [String] = [] }
        let seen = Seen()
        scanner.on(.advertisementData) { event in
            if case let .advertisementData(advertisement) = event { seen.handles.append(advertisement.handle) }
        }
        let reports = [Self.crownstoneReport(), Self.otherReport]
        func feed() { reports.forEach { scanner.receive($0) } }
        feed()
        #expect(seen.handles.isEmpty, "nothing before a scan starts")
        scanner.startScanning()
        feed()
        scanner.startScanningForCrownstones()
        feed()
        scanner.startScanningForService(Self.heartRate)
        feed()
        scanner.stopScanning()
        feed()
        #expect(seen.handles == ["cs-1", "hr", "cs-1", "hr"])
    }

    /// BLN/SCAN/BV-02: a Crownstone UUID in the advertising data (not the scan response) is not a Crownstone.
    @Test func crownstoneFilterLooksAtTheScanResponse() {
        let misplaced = BluenetScanReport(handle: "x", rssi: -50, advertisingData: AdvertisingData([
            .serviceData(ServiceData(uuid: CrownstoneServiceData.plugServiceUUID, data: Self.state.bytes)),
        ]))
        #expect(!BluenetScanFilter.crownstones.matches(misplaced))
        #expect(BluenetScanFilter.crownstones.matches(Self.crownstoneReport()))
    }

    /// BLN/SCAN/BV-05: isReady fulfils once the host's manager is initialised, not before; at once after.
    @Test func readyOnlyAfterTheHost() {
        var scanner = BluenetScanner()
        final class Count { var fulfilled = 0 }
        let count = Count()
        scanner.whenReady { count.fulfilled += 1 }
        #expect(!scanner.isReady)
        #expect(count.fulfilled == 0)
        scanner.hostReady()
        #expect(scanner.isReady)
        #expect(count.fulfilled == 1)
        scanner.whenReady { count.fulfilled += 1 }
        scanner.hostReady()
        #expect(count.fulfilled == 2, "each waiter once")
    }

    /// Untrusted advertising data: every random structure list decodes without a crash.
    @Test func randomAdvertisingDataNeverCrashes() {
        var random = SplitMix64(seed: 18)
        for _ in 0..<2000 {
            let count = Int(random.next() % 6)
            let structures = (0..<count).map { _ in
                let type = AdvertisingDataType(rawValue: [0x16, 0x20, 0x21, 0x02, 0x03, 0x09, 0xFF][Int(random.next() % 7)])
                return AdvertisingDataStructure(type: type, data: (0..<Int(random.next() % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            }
            let report = BluenetScanReport(handle: "r", rssi: -80, advertisingData: AdvertisingData(structures), scanResponse: AdvertisingData(structures))
            _ = BluenetAdvertisement(report: report).stringify()
            _ = BluenetScanFilter.crownstones.matches(report)
        }
    }
}
