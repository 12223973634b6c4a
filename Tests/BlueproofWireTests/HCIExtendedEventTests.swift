import Testing
@testable import BlueproofWire

@Suite("HCI events: LE Extended Advertising Report and LE Enhanced Connection Complete [v2]")
struct HCIExtendedEventTests {
    /// Two reports: a legacy ADV_IND as btvirt reports it (no SID, TX power and RSSI not
    /// available), then an extended, directed, connectable PDU on LE Coded whose data continues
    /// in a later report.
    static let twoReports = hexBytes("""
        3e37 0d 02
        1300 01 c6a5b4332211 01 00 ff 7f 7f 0000 00 000000000000 03 020106
        2500 00 060504030201 03 02 05 f8 c4 5000 01 0100000000c0 02 aabb
        """)

    @Test func twoReportsInOneEvent() throws {
        let event = try HCILEExtendedAdvertisingReportEvent(HCIEventPacket(payload: Self.twoReports))
        #expect(event.reports.count == 2)
        let legacy = try #require(event.reports.first)
        #expect(legacy.eventType == .legacyAdvInd)
        #expect(legacy.eventType.dataStatus == .complete)
        #expect(legacy.addressType == .randomDevice)
        #expect(legacy.address.description == "11:22:33:B4:A5:C6")
        #expect(legacy.primaryPHY == .le1M)
        #expect(legacy.secondaryPHY == .noPackets)
        #expect(legacy.advertisingSID == HCILEExtendedAdvertisingReportEvent.Report.noSID)
        #expect(legacy.data == [0x02, 0x01, 0x06])

        let extended = try #require(event.reports.last)
        #expect(extended.eventType.contains([.connectable, .directed]))
        #expect(!extended.eventType.contains(.legacy))
        #expect(extended.eventType.dataStatus == .incompleteMoreToCome)
        #expect(extended.address == BDAddress("01:02:03:04:05:06"))
        #expect(extended.primaryPHY == .leCoded)
        #expect(extended.secondaryPHY == .le2M)
        #expect(extended.advertisingSID == 5)
        #expect(extended.txPower == -8)
        #expect(extended.rssi == -60)
        #expect(extended.periodicAdvertisingInterval.duration == .milliseconds(100))
        #expect(extended.directAddressType == .randomDevice)
        #expect(extended.directAddress == BDAddress("C0:00:00:00:00:01"))
        #expect(extended.data == [0xAA, 0xBB])
    }

    @Test func rssiAndTXPower127AreNotAvailable() throws {
        let event = try HCILEExtendedAdvertisingReportEvent(HCIEventPacket(payload: Self.twoReports))
        var report = try #require(event.reports.first)
        #expect(report.rssi == nil)
        #expect(report.rawRSSI == 127)
        #expect(report.txPower == nil)
        report.rssi = -20
        report.txPower = 4
        #expect(report.rawRSSI == -20)
        #expect(report.rawTXPower == 4)
        report.rssi = nil
        #expect(report.rawRSSI == 127)
    }

    @Test func roundTripsThroughHCIEvent() throws {
        let event = try HCIEvent(payload: Self.twoReports)
        guard case let .le(.extendedAdvertisingReport(report)) = event else {
            Issue.record("decoded as \(event)")
            return
        }
        #expect(event.name == "LE Extended Advertising Report")
        #expect(event.packet.packet.payload == Self.twoReports)
        let built = HCILEExtendedAdvertisingReportEvent(reports: report.reports)
        #expect(built.packet.packet.payload == Self.twoReports)
    }

    @Test func dataLengthPastTheEndThrowsAtTheData() throws {
        let payload = hexBytes("3e1c 0d 01 1000 00 010203040506 01 00 ff 7f 7f 0000 00 000000000000 20 0201")
        let error = try #require(decodeFailure(payload))
        #expect(error.offset == 28)
        #expect(error.reason == .truncated(needed: 32, available: 2))
        #expect(error.context == "HCI LE Extended Advertising Report: data[0]")
    }

    @Test func moreReportsClaimedThanPresentThrows() throws {
        var payload = Self.twoReports
        payload[3] = 3
        let error = try #require(decodeFailure(payload))
        #expect(error.offset == Self.twoReports.count)
        #expect(error.context.hasSuffix("event type[2]"))
    }

    @Test func eventTypeDescriptions() {
        #expect(LEExtendedAdvertisingEventType.legacyAdvInd.description == "0x0013 (connectable,scannable,legacy; complete)")
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0025).description
                == "0x0025 (connectable,directed; incomplete-more-to-come)")
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0040).description == "0x0040 (none; incomplete-truncated)")
        #expect(LEExtendedAdvertisingEventType(rawValue: 0x0160).description == "0x0160 (bit8; reserved)")
        var type = LEExtendedAdvertisingEventType.legacyScanResponseToAdvInd
        #expect(type.rawValue == 0x001B)
        type.dataStatus = .incompleteTruncated
        #expect(type.rawValue == 0x005B)
        #expect(type.contains(.scanResponse))
    }

    @Test func describedForInspect() {
        let description = H4Packet(type: .event, payload: Self.twoReports).describe()
        #expect(description.name == "LE Extended Advertising Report")
        #expect(description.malformed == nil)
        #expect(description.fields == [
            .init("num_reports", "2"),
            .init("event_type[0]", "0x0013 (connectable,scannable,legacy; complete)"),
            .init("address[0]", "11:22:33:B4:A5:C6 (random)"),
            .init("phy[0]", "LE 1M"),
            .init("tx_power[0]", "n/a"),
            .init("rssi[0]", "n/a"),
            .init("data[0]", "020106"),
            .init("event_type[1]", "0x0025 (connectable,directed; incomplete-more-to-come)"),
            .init("address[1]", "01:02:03:04:05:06 (public)"),
            .init("phy[1]", "LE Coded/LE 2M"),
            .init("sid[1]", "5"),
            .init("tx_power[1]", "-8 dBm"),
            .init("rssi[1]", "-60 dBm"),
            .init("periodic_interval[1]", "0x0050 (100 ms)"),
            .init("direct_address[1]", "C0:00:00:00:00:01 (random)"),
            .init("data[1]", "aabb"),
        ])
    }

    @Test func anonymousAdvertiser() {
        let event = HCILEExtendedAdvertisingReportEvent(reports: [
            .init(eventType: [], addressType: .anonymous, address: .zero, rawRSSI: -70, data: []),
        ])
        let description = H4Packet(type: .event, payload: event.packet.packet.payload).describe()
        #expect(description.fields.contains(.init("address", "anonymous")))
        #expect(description.fields.contains(.init("rssi", "-70 dBm")))
    }

    @Test func truncatedReportIsMalformedButNamed() {
        let description = H4Packet(type: .event, payload: hexBytes("3e04 0d 01 1300")).describe()
        #expect(description.name == "LE Extended Advertising Report")
        #expect(description.malformed?.reason == .truncated(needed: 1, available: 0))
    }

    // MARK: LE Enhanced Connection Complete [v2]

    static let enhancedV2 = hexBytes("""
        3e22 29 00 4000 01 01 5544332211c0 000000000000 000000000000 1800 0000 2a00 00 01 ffff
        """)

    @Test func enhancedConnectionCompleteV2() throws {
        let event = try HCIEvent(payload: Self.enhancedV2)
        guard case let .le(.enhancedConnectionCompleteV2(complete)) = event else {
            Issue.record("decoded as \(event)")
            return
        }
        #expect(event.name == "LE Enhanced Connection Complete [v2]")
        #expect(complete.base.status == .success)
        #expect(complete.base.connectionHandle == 0x0040)
        #expect(complete.base.role == .peripheral)
        #expect(complete.base.peerAddress == BDAddress("C0:11:22:33:44:55"))
        #expect(complete.base.connectionInterval == LEConnectionInterval(rawValue: 0x0018))
        #expect(complete.advertisingHandle == 1)
        #expect(complete.syncHandle == HCILEEnhancedConnectionCompleteV2Event.noSyncHandle)
        #expect(event.packet.packet.payload == Self.enhancedV2)
        #expect(HCILEMetaEvent.name(ofSubevent: 0x29) == "LE Enhanced Connection Complete [v2]")
    }

    @Test func enhancedConnectionCompleteV2Described() {
        let description = H4Packet(type: .event, payload: Self.enhancedV2).describe()
        #expect(description.name == "LE Enhanced Connection Complete [v2]")
        #expect(description.fields.first == .init("status", "Success (0x00)"))
        #expect(description.fields.contains(.init("peer_rpa", "00:00:00:00:00:00")))
        #expect(Array(description.fields.suffix(2)) == [
            .init("advertising_handle", "1"), .init("sync_handle", "none"),
        ])
    }

    @Test func enhancedConnectionCompleteV2Truncated() throws {
        let error = try #require(decodeFailure(reframed(Self.enhancedV2) { $0.removeLast() }))
        #expect(error.offset == 34)
        #expect(error.reason == .truncated(needed: 2, available: 1))
        #expect(error.context == "HCI LE Enhanced Connection Complete [v2]: sync handle")
    }

    @Test func v1IsStillV1() throws {
        // The same connection as [v1]: no advertising or sync handle.
        let v1 = hexBytes("3e1f 0a 00 4000 01 01 5544332211c0 000000000000 000000000000 1800 0000 2a00 00")
        guard case .le(.enhancedConnectionComplete) = try HCIEvent(payload: v1) else {
            Issue.record("not decoded as [v1]")
            return
        }
    }
}
