import BlueproofBluenet
import BlueproofWire
import Testing

@Suite("Bluenet localization: ranging, regions, fingerprints, classifier")
struct LocalizationTests {
    typealias Harness = LocalizationHarness
    static let kitchen: [UInt16: Int] = [1: -50, 2: -70, 3: -80]
    static let hall: [UInt16: Int] = [1: -80, 2: -60, 3: -55]

    /// Loads kitchen and hall fingerprints (five identical rounds each, spread ±2 dB).
    static func trained() throws -> Harness {
        var harness = Harness()
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        for (location, room) in [("kitchen", kitchen), ("hall", hall)] {
            let samples = Dictionary(uniqueKeysWithValues: room.map { entry in (Harness.id(entry.key), [-2, -1, 0, 1, 2].map { entry.value + $0 }) })
            try harness.core.loadFingerprint(groupId: "home", locationId: location, fingerprint: try Fingerprint(samples: samples))
        }
        return harness
    }

    /// BLN/BCN/BV-03: idString is uuid + ".Maj:" + major + ".Min:" + minor; the packet JSON has the five fields.
    @Test func packetJSON() {
        let packet = IBeaconPacket(beacon: Harness.beacon(2), rssi: -61)
        #expect(packet.idString == "\(Harness.uuid).Maj:1.Min:2")
        #expect(packet.stringify() == #"{"idString":"E20A39F4-73F5-4BC4-A12F-17D1AD07A961.Maj:1.Min:2","major":1,"minor":2,"#
            + #""rssi":-61,"uuid":"E20A39F4-73F5-4BC4-A12F-17D1AD07A961"}"#)
    }

    /// BLN/BCN/BI-02: nothing (no ranging, no region) before trackUUID, and nothing for untracked UUIDs after.
    @Test func nothingBeforeTrackUUID() throws {
        var harness = Harness()
        harness.second(Self.kitchen)
        #expect(harness.take().isEmpty)
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        harness.second(Self.kitchen, uuid: Harness.otherUUID)
        #expect(harness.take().isEmpty)
    }

    /// BLN/BCN/BV-04: one array a second with each beacon's mean RSSI of that second, sorted by idString.
    @Test func oneBatchASecond() throws {
        var harness = Harness()
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        harness.core.receive(Harness.beacon(2), rssi: -60)
        harness.core.receive(Harness.beacon(2), rssi: -63)
        harness.core.receive(Harness.beacon(1), rssi: -70)
        harness.core.tick(now: .milliseconds(500))
        #expect(harness.take().isEmpty, "not before a second has passed")
        harness.core.tick(now: .seconds(1))
        let batches = harness.take().compactMap { event -> [IBeaconPacket]? in
            if case let .iBeaconAdvertisement(packets) = event { packets } else { nil }
        }
        #expect(batches.map { $0.map(\.minor) } == [[1, 2]])
        #expect(batches.first?.map(\.rssi) == [-70, -62])
    }

    /// BLN/BCN/BV-05, BV-06: enterRegion on the first ranged beacon, exitRegion 30 s after the last.
    @Test func enterAndExitRegion() throws {
        var harness = Harness()
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        harness.second([1: -60])
        #expect(harness.take().contains(.enterRegion(groupId: "home")))
        harness.second([1: -60])
        #expect(!harness.take().contains(.enterRegion(groupId: "home")), "entered once")
        for _ in 0..<29 { harness.second([:]) }
        #expect(!harness.take().contains(.exitRegion(groupId: "home")))
        harness.second([:])
        #expect(harness.take() == [.exitRegion(groupId: "home")])
    }

    /// BLN/LOC/BI-01: no location events before a fingerprint is loaded or finalized.
    @Test func noLocationBeforeAFingerprint() throws {
        var harness = Harness()
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        for _ in 0..<5 { harness.second(Self.kitchen) }
        #expect(harness.takeLocations().isEmpty)
    }

    /// BLN/LOC/BI-02, BV-01: two beacons give no prediction; three do.
    @Test func predictionNeedsThreeBeacons() throws {
        var harness = try Self.trained()
        harness.second([1: -50, 2: -70])
        #expect(harness.takeLocations().isEmpty)
        harness.second(Self.kitchen)
        #expect(harness.takeLocations() == ["enter:kitchen", "current:kitchen"])
    }

    /// BLN/LOC/BV-02, BV-03: currentLocation each second; a move publishes exitLocation then enterLocation.
    @Test func currentEverySecondAndMoves() throws {
        var harness = try Self.trained()
        harness.second(Self.kitchen)
        harness.second(Self.kitchen)
        harness.second(Self.hall)
        #expect(harness.takeLocations() == ["enter:kitchen", "current:kitchen", "current:kitchen",
                                            "exit:kitchen", "enter:hall", "current:hall"])
    }

    /// BLN/LOC/BI-03: leaving the region publishes exitRegion but no exitLocation.
    @Test func leavingTheRegionIsNoExitLocation() throws {
        var harness = try Self.trained()
        harness.second(Self.kitchen)
        _ = harness.take()
        for _ in 0..<30 { harness.second([:]) }
        #expect(harness.take() == [.exitRegion(groupId: "home")])
        harness.second(Self.kitchen)
        #expect(harness.take().filter { if case .iBeaconAdvertisement = $0 { false } else { true } }
            == [.enterRegion(groupId: "home"), .enterLocation(locationId: "kitchen"), .currentLocation(locationId: "kitchen")],
            "back in the region, the location is entered afresh")
    }

    /// BLN/LOC/BV-04, BV-05, BV-07: a collection paused and resumed finalizes as one
    /// fingerprint (paused rounds left out), getFingerprint returns it, and it drives predictions.
    @Test func collectPauseResumeFinalize() throws {
        var harness = Harness()
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        try harness.core.startCollectingFingerprint()
        harness.second(Self.kitchen)
        try harness.core.pauseCollectingFingerprint()
        harness.second(Self.hall)
        try harness.core.resumeCollectingFingerprint()
        harness.second(Self.kitchen)
        #expect(harness.core.getFingerprint(groupId: "home", locationId: "kitchen") == nil)
        try harness.core.finalizeFingerprint(groupId: "home", locationId: "kitchen")
        let fingerprint = try #require(harness.core.getFingerprint(groupId: "home", locationId: "kitchen"))
        #expect(fingerprint.samples == [Harness.id(1): [-50, -50], Harness.id(2): [-70, -70], Harness.id(3): [-80, -80]])
        _ = harness.take()
        harness.second(Self.kitchen)
        #expect(harness.takeLocations() == ["enter:kitchen", "current:kitchen"])
    }

    /// BLN/LOC/BI-04: an aborted collection leaves nothing to fetch or finalize.
    @Test func abortLeavesNothing() throws {
        var harness = Harness()
        try harness.core.trackUUID(Harness.uuid, groupId: "home")
        try harness.core.startCollectingFingerprint()
        harness.second(Self.kitchen)
        harness.core.abortCollectingFingerprint()
        #expect(throws: BluenetError.self) { try harness.core.finalizeFingerprint(groupId: "home", locationId: "kitchen") }
        #expect(harness.core.getFingerprint(groupId: "home", locationId: "kitchen") == nil)
    }

    /// Collection calls in the wrong state are typed refusals.
    @Test func collectionStateIsChecked() throws {
        var collection = FingerprintCollection()
        #expect(throws: BluenetError.self) { try collection.pause() }
        #expect(throws: BluenetError.self) { try collection.resume() }
        try collection.start()
        #expect(throws: BluenetError.self) { try collection.start() }
        #expect(throws: BluenetError.fingerprintEmpty) { _ = try collection.finalize() }
    }

    /// BLN/LOC/BV-06: a fingerprint built from its string equals the original.
    @Test func fingerprintStringRoundTrip() throws {
        let fingerprint = try Fingerprint(samples: [Harness.id(1): [-50, -51], Harness.id(2): [-70]])
        let text = fingerprint.stringify()
        #expect(text == #"{"E20A39F4-73F5-4BC4-A12F-17D1AD07A961.Maj:1.Min:1":[-50,-51],"E20A39F4-73F5-4BC4-A12F-17D1AD07A961.Maj:1.Min:2":[-70]}"#)
        #expect(try Fingerprint(string: text) == fingerprint)
    }

    /// BLN/LOC/BV-06: malformed or oversized fingerprint strings are typed refusals naming the limit.
    @Test func fingerprintStringsAreBounded() {
        #expect(throws: BluenetError.fingerprintTooLong(octets: BluenetLimits.fingerprintTextMaximum + 1, limit: BluenetLimits.fingerprintTextMaximum)) {
            try Fingerprint(string: String(repeating: " ", count: BluenetLimits.fingerprintTextMaximum + 1))
        }
        for text in ["", "[]", "{", #"{"a":-50}"#, #"{"a":["x"]}"#, #"{"a":[-50.5]}"#, #"{"a":[99999999999999999999999]}"#,
                     String(repeating: "[", count: 10_000)] {
            #expect(throws: BluenetError.self) { try Fingerprint(string: text) }
        }
        #expect(throws: BluenetError.rssiOutOfRange(-200)) { try Fingerprint(string: #"{"a":[-200]}"#) }
        #expect(throws: BluenetError.fingerprintEmpty) { try Fingerprint(string: #"{"a":[]}"#) }
        let many = "{" + (0...BluenetLimits.fingerprintBeaconsMaximum).map { "\"b\($0)\":[-50]" }.joined(separator: ",") + "}"
        #expect(throws: BluenetError.fingerprintTooLarge(what: "beacons", count: BluenetLimits.fingerprintBeaconsMaximum + 1,
                                                          limit: BluenetLimits.fingerprintBeaconsMaximum)) { try Fingerprint(string: many) }
    }

    /// trackUUID takes only the 36-character UUID form and a bounded group id.
    @Test func trackUUIDChecksItsArguments() {
        var core = BluenetLocalization()
        #expect(throws: BluenetError.self) { try core.trackUUID("180D", groupId: "home") }
        #expect(throws: BluenetError.self) { try core.trackUUID(Harness.uuid, groupId: "") }
    }
}
