import Testing
@testable import BlueproofWire

@Suite("HCI events: LE Advertising Report")
struct HCIEventAdvertisingReportTests {
    /// Two reports in one event, each whole in turn (RSSI after each report's data).
    static let twoReports = hexBytes("3e19 02 02 00 01 c6a5b4332211 03 020106 c4 04 00 060504030201 00 7f")

    @Test func twoReportsInOneEvent() throws {
        let event = try HCILEAdvertisingReportEvent(HCIEventPacket(payload: Self.twoReports))
        #expect(event.reports.count == 2)
        let first = try #require(event.reports.first)
        #expect(first.eventType == .advInd)
        #expect(first.addressType == .randomDevice)
        #expect(first.address.description == "11:22:33:B4:A5:C6")
        #expect(first.data == [0x02, 0x01, 0x06])
        #expect(first.rssi == -60)
        #expect(first.rawRSSI == -60)
        let second = try #require(event.reports.last)
        #expect(second.eventType == .scanRsp)
        #expect(second.address == BDAddress("01:02:03:04:05:06"))
        #expect(second.data.isEmpty)
    }

    @Test func rssi127IsNotAvailable() throws {
        let event = try HCILEAdvertisingReportEvent(HCIEventPacket(payload: Self.twoReports))
        let report = try #require(event.reports.last)
        #expect(report.rssi == nil)
        #expect(report.rawRSSI == 127)
        var changed = report
        changed.rssi = -20
        #expect(changed.rawRSSI == -20)
        changed.rssi = nil
        #expect(changed.rawRSSI == 127)
        let built = HCILEAdvertisingReportEvent.Report(eventType: .advNonconnInd, addressType: .publicDevice,
                                                       address: .zero, data: [], rssi: nil)
        #expect(built.rawRSSI == 127)
    }

    @Test func dataLengthPastTheEndThrowsAtTheData() throws {
        // One report claiming 0x20 data bytes with only 2 present.
        let payload = hexBytes("3e0d 02 01 00 00 010203040506 20 0201")
        let error = try #require(decodeFailure(payload))
        #expect(error.offset == 13)
        #expect(error.reason == .truncated(needed: 32, available: 2))
        #expect(error.context == "HCI LE Advertising Report: data[0]")
    }

    @Test func moreReportsClaimedThanPresentThrows() throws {
        var payload = Self.twoReports
        payload[3] = 3
        let error = try #require(decodeFailure(payload))
        #expect(error.offset == 27)
        #expect(error.context.hasSuffix("event type[2]"))
    }

    @Test func zeroReportsRoundTrip() throws {
        let payload: [UInt8] = [0x3E, 0x02, 0x02, 0x00]
        let event = try HCIEvent(payload: payload)
        #expect(event == .le(.advertisingReport(.init(reports: []))))
        #expect(event.packet.packet.payload == payload)
    }

    @Test func longDataRoundTrips() throws {
        let data = (0..<31).map { UInt8($0) }
        let event = HCILEAdvertisingReportEvent(reports: [
            .init(eventType: .advScanInd, addressType: .randomIdentity, address: address("C0:00:00:00:00:01"),
                  data: data, rssi: -100),
        ])
        let payload = event.packet.packet.payload
        #expect(payload.count == 2 + 2 + 10 + 31)
        #expect(payload[12] == 31)
        #expect(payload.last == UInt8(bitPattern: -100))
        #expect(try HCIEvent(payload: payload) == .le(.advertisingReport(event)))
    }
}
