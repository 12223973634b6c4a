import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofWire

/// BLN/BCN BI-01, BI-02, BV-01, BV-02 on the air (bluenet-lib-ios README, "iBeaconPacket" and
/// "Events"): what the subject reads from iBeacon frames, judged on the packets it publishes,
/// behind the radio proxy as the other BCN cases (``BluenetBeaconCases``).
enum BluenetBeaconReadingCases {
    typealias Beacons = BluenetBeaconCases

    /// The subject at the origin, three testers 2 m around it (about -65 dBm each).
    static let crowd = BluenetStage.scenario(testers: [("beacon", 2, 0), ("other-company", 0, 2), ("other-type", -2, 0)])

    /// The subject, the tracked beacon 2 m away and a stranger, an iBeacon of another UUID, 2 m the other way (BI-02).
    static let strangerRoom = BluenetStage.scenario(testers: [("beacon", 2, 0), ("stranger", 0, 2)])
    /// The stranger's iBeacon: the tracked one's major and minor under another proximity UUID.
    static let stranger = IBeacon(proximityUUID: BluetoothUUID("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0") ?? BluetoothUUID(uuid16: 1),
                                  major: Beacons.beacon.major, minor: Beacons.beacon.minor, measuredPower: -59)

    /// An iBeacon's 23 octets under `company` with `type`: the tracked UUID, major and minor `tag`.
    static func lookalike(company: UInt16, type: UInt8, tag: UInt16) -> AdvertisingData {
        var beacon = Beacons.beacon
        (beacon.major, beacon.minor) = (tag, tag)
        let data = [type] + beacon.manufacturerData.data.dropFirst()
        return AdvertisingData([.flags(.generalDiscoverableLEOnly), .manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: company, data: data))])
    }

    /// The packets of the subject's own ranging rounds since publication `start`.
    static func packets(_ stage: BluenetStage, from start: Int = 0) -> [[String: Any]] {
        stage.publications.events.dropFirst(start).filter { $0.topic == .iBeaconAdvertisement && $0.subscription == nil }
            .flatMap { BluenetPublication.parseArray($0.object) ?? [] }
    }

    /// The beacon's packet in the subject's first ranging round (``BluenetBeaconCases/ranging(_:)``);
    /// none is a precondition not met.
    static func rangedPacket(_ stage: BluenetStage) async throws -> [String: Any] {
        guard let round = try await Beacons.ranging(stage) else {
            throw BluenetCaseStopped.preconditionNotMet("no iBeaconAdvertisement within \(BluenetStage.airWait) of trackUUID(\(Beacons.uuid)) with its beacon in range")
        }
        guard let packet = BluenetPublication.parseArray(round.object)?.first else {
            throw BluenetCaseStopped.preconditionNotMet("the first ranging round carried no packet: \(round.object)")
        }
        return packet
    }

    static let all: [BluenetCase] = [
        BluenetCase("BLN/BCN/BI-01", nodes: 4, brokenBy: [.bluenetIBeaconAnyCompany], radioScenario: crowd,
                    quietWindow: BluenetStage.quietWait) { stage in
            // Look-alikes first (tracked UUID, major and minor 1 and 2), then the iBeacon itself.
            let nordic: UInt16 = 0x0059
            for (node, data) in [(2, lookalike(company: nordic, type: IBeacon.beaconType, tag: 1)),
                                 (3, lookalike(company: ManufacturerSpecificData.appleCompanyIdentifier, type: 0x03, tag: 2))] {
                try await stage.context.host(node).startAdvertising(LEAdvertisingParameters(data: try data.encodedLegacy(), connectable: false))
            }
            _ = try await rangedPacket(stage)
            // Two more rounds with all three in range.
            _ = await stage.publications.first(within: BluenetStage.quietWait) { _ in false }
            let taken = packets(stage).filter { BluenetPublication.integer($0["major"]) != Int(Beacons.beacon.major) }
            guard taken.isEmpty else {
                return .fail("ranged manufacturer data of another company (0x0059) or type (0x03) as iBeacons: \(taken.compactMap { $0["idString"] })")
            }
            return .pass("only the Apple type 0x02 iBeacon was ranged, not its look-alikes of company 0x0059 and type 0x03")
        },
        BluenetCase("BLN/BCN/BI-02", nodes: 3, brokenBy: [.bluenetRangesUntracked, .bluenetTrackingRangesEvery], radioScenario: strangerRoom,
                    quietWindow: BluenetStage.quietWait) { stage in
            try await stage.subject.startScanning(.all)
            for (node, beacon) in [(1, Beacons.beacon), (2, stranger)] {
                try await stage.context.host(node).startAdvertising(LEAdvertisingParameters(data: try beacon.advertisingData.encodedLegacy(), connectable: false))
            }
            guard await stage.publications.first(within: BluenetStage.airWait, where: { $0.topic == .advertisementData }) != nil else {
                throw BluenetCaseStopped.preconditionNotMet("the scanning subject published no advertisement within \(BluenetStage.airWait) with an iBeacon in range")
            }
            let untracked = await stage.publishedWhileQuiet { [.iBeaconAdvertisement, .enterRegion, .exitRegion].contains($0.topic) }
            guard untracked.isEmpty else {
                return .fail("published \(untracked.map { "\($0.topic) \($0.object)" }) before any trackUUID")
            }
            // The beacon is one the subject ranges once asked: the quiet was the rule, not the radio.
            let start = stage.publications.events.count
            try await stage.subject.trackUUID(Beacons.uuid, groupId: Beacons.group)
            guard await stage.publications.first(within: BluenetStage.airWait, from: start, where: { $0.topic == .iBeaconAdvertisement }) != nil else {
                throw BluenetCaseStopped.preconditionNotMet("no iBeaconAdvertisement within \(BluenetStage.airWait) of trackUUID(\(Beacons.uuid)) either")
            }
            // Tracking one UUID ranges that one only: the stranger stays out of every round.
            let rounds = await stage.publishedWhileQuiet(from: start) { $0.topic == .iBeaconAdvertisement && $0.subscription == nil }
            let strangers = rounds.flatMap { BluenetPublication.parseArray($0.object) ?? [] }
                .filter { ($0["uuid"] as? String)?.uppercased() == stranger.proximityUUIDString.uppercased() }
            guard strangers.isEmpty else {
                return .fail("trackUUID(\(Beacons.uuid)) also ranged the untracked \(stranger.proximityUUIDString): \(strangers.compactMap { $0["idString"] })")
            }
            return .pass("nothing ranged in \(BluenetStage.quietWait) of scanning beside two iBeacons; once one UUID was tracked, only that one")
        },
        BluenetCase("BLN/BCN/BV-01", nodes: 2, brokenBy: [.bluenetIBeaconUUIDReversed, .bluenetRangedRSSIZero], radioScenario: Beacons.room,
                    quietWindow: BluenetStage.timerWait(1)) { stage in
            let packet = try await rangedPacket(stage)
            guard (packet["uuid"] as? String)?.uppercased() == Beacons.uuid else {
                return .fail("the packet's uuid is \(packet["uuid"] ?? "absent"), not the advertised proximity UUID \(Beacons.uuid)")
            }
            guard BluenetPublication.integer(packet["major"]) != nil, BluenetPublication.integer(packet["minor"]) != nil,
                  let rssi = BluenetPublication.integer(packet["rssi"]) else {
                return .fail("the packet lacks an integer major, minor or rssi: \(packet)")
            }
            // The proxy reports the beacon at about -65 dBm (2 m): neither 0 ("unknown") nor the
            // frame's measured power (-59 dBm at 1 m) is what was heard.
            guard Beacons.heardRSSI.contains(rssi) else {
                return .fail("the packet's rssi is \(rssi), not the level the beacon was heard at (about -65 dBm, \(Beacons.heardRSSI.lowerBound) to \(Beacons.heardRSSI.upperBound)): \(packet)")
            }
            return .pass("uuid \(Beacons.uuid), major \(packet["major"] ?? ""), minor \(packet["minor"] ?? ""), rssi \(rssi)")
        },
        BluenetCase("BLN/BCN/BV-02", nodes: 2, brokenBy: [.bluenetMajorMinorLittleEndian], radioScenario: Beacons.room, quietWindow: BluenetStage.timerWait(1)) { stage in
            // 0x0102 and 0x0304: read little-endian they would be 513 and 1027.
            let packet = try await rangedPacket(stage)
            let (major, minor) = (Int(Beacons.beacon.major), Int(Beacons.beacon.minor))
            guard BluenetPublication.integer(packet["major"]) == major, BluenetPublication.integer(packet["minor"]) == minor else {
                return .fail("major \(packet["major"] ?? "absent"), minor \(packet["minor"] ?? "absent"), not \(major) and \(minor) read big-endian from 01 02 and 03 04")
            }
            return .pass("major \(major), minor \(minor) read big-endian")
        },
    ]
}
