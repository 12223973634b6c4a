import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofWire

/// BLN/BCN on the air (bluenet-lib-ios README, "Bluenet Localization" events and
/// "iBeaconPacket"): an iBeacon (node 1) 2 m from the subject behind the radio proxy, which
/// gives the RSSI (btvirt reports none) and repeats the beacon's report every 100 ms.
enum BluenetBeaconCases {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let group = "home"
    static let beacon = IBeacon(proximityUUID: BluetoothUUID(uuid) ?? BluetoothUUID(uuid16: 0), major: 258, minor: 772, measuredPower: -59)

    /// The subject at the origin, the beacon 2 m away: about -65 dBm, always in range.
    static let room = BluenetStage.scenario(testers: [("beacon", 2, 0)])
    /// The RSSI a subject may report of a beacon 2 m away in ``room`` (-65 dBm without noise).
    static let heardRSSI = -70 ... -60

    /// Tracks ``uuid`` for ``group``, starts the beacon, and waits for the first ranging round.
    static func ranging(_ stage: BluenetStage) async throws -> BluenetPublication? {
        try await stage.subject.trackUUID(uuid, groupId: group)
        let host = try stage.context.host(1)
        try await host.startAdvertising(LEAdvertisingParameters(data: try beacon.advertisingData.encodedLegacy(), connectable: false))
        return await stage.publications.first(within: BluenetStage.airWait) { $0.topic == .iBeaconAdvertisement && $0.subscription == nil }
    }

    static let all: [BluenetCase] = [
        BluenetCase("BLN/BCN/BV-03", nodes: 2, brokenBy: [.bluenetIdStringMisjoined], radioScenario: room, quietWindow: BluenetStage.timerWait(1)) { stage in
            guard let round = try await ranging(stage) else {
                throw BluenetCaseStopped.preconditionNotMet("no iBeaconAdvertisement within \(BluenetStage.airWait) of trackUUID(\(uuid)) with its beacon in range")
            }
            let packets = BluenetPublication.parseArray(round.object) ?? []
            guard let packet = packets.first(where: { BluenetPublication.integer($0["major"]) == 258 }), let packetUUID = packet["uuid"] as? String,
                  packetUUID.uppercased() == uuid else {
                return .fail("the ranged packets name no beacon \(uuid) major 258: \(round.object)")
            }
            let expected = "\(packetUUID).Maj:258.Min:772"
            guard packet["idString"] as? String == expected else {
                return .fail("idString is \(packet["idString"] ?? "absent"), not uuid + \".Maj:\" + major + \".Min:\" + minor = \(expected)")
            }
            return .pass("idString \(expected)")
        },
        BluenetCase("BLN/BCN/BV-04", nodes: 2, brokenBy: [.bluenetRangingEveryOtherRound], radioScenario: room,
                    quietWindow: BluenetStage.intervalWatch) { stage in
            guard let first = try await ranging(stage) else {
                throw BluenetCaseStopped.preconditionNotMet("no iBeaconAdvertisement within \(BluenetStage.airWait) of trackUUID(\(uuid)) with its beacon in range")
            }
            return .judged(await stage.everyInterval(after: first), "ranging rounds")
        },
        BluenetCase("BLN/BCN/BV-05", nodes: 2, brokenBy: [.bluenetRegionNamedByUUID, .bluenetRegionEnteredEveryRound], radioScenario: room,
                    quietWindow: BluenetStage.timerWait(3)) { stage in
            _ = try await ranging(stage)
            guard let entered = await stage.publications.first(within: BluenetStage.airWait, where: { $0.topic == .enterRegion && $0.subscription == nil }) else {
                return .fail("no enterRegion within \(BluenetStage.airWait) of its beacon coming into range")
            }
            guard entered.object == "\"\(group)\"" else {
                return .fail("enterRegion carried \(entered.object), not the group id \"\(group)\"")
            }
            // Entered once: the beacon stays in range for two more rounds and more.
            let regionEvents = await stage.publishedWhileQuiet { [.enterRegion, .exitRegion].contains($0.topic) && $0.subscription == nil }
            guard regionEvents.count == 1 else {
                return .fail("one entry into the region published \(regionEvents.map { "\($0.topic) \($0.object)" }) while its beacon stayed in range")
            }
            return .pass("enterRegion \(entered.object), once")
        },
        {
            // The document gives no time for leaving a region; the reference's is 30 s. A
            // subject gets up to ``regionExitWait`` after its beacon went quiet.
            var leaving = BluenetCase("BLN/BCN/BV-06", nodes: 2, brokenBy: [.bluenetRegionNeverLeft], radioScenario: room) { stage in
                _ = try await ranging(stage)
                guard await stage.publications.first(within: BluenetStage.airWait, where: { $0.topic == .enterRegion && $0.subscription == nil }) != nil else {
                    throw BluenetCaseStopped.preconditionNotMet("no enterRegion within \(BluenetStage.airWait) of its beacon coming into range")
                }
                let quiet = stage.publications.events.count
                if let early = stage.publications.events.first(where: { $0.topic == .exitRegion && $0.subscription == nil }) {
                    return .fail("exitRegion \(early.object) while the region's beacon was still in range")
                }
                try await stage.context.host(1).stopAdvertising()
                guard let exited = await stage.publications.first(within: regionExitWait, from: quiet, where: { $0.topic == .exitRegion && $0.subscription == nil }) else {
                    return .fail("no exitRegion within \(regionExitWait) of the region's only beacon going quiet")
                }
                guard exited.object == "\"\(group)\"" else { return .fail("exitRegion carried \(exited.object), not the group id \"\(group)\"") }
                return .pass("exitRegion \(exited.object) after the beacon went quiet")
            }
            leaving.timeout = .seconds(90)
            leaving.quietWindow = referenceRegionExit
            return leaving
        }(),
    ]

    /// How long BV-06 waits for exitRegion once the beacon is quiet.
    static let regionExitWait: Duration = .seconds(45)
    /// When the reference leaves a region whose beacons went quiet (BluenetHost's ranging).
    static let referenceRegionExit: Duration = .seconds(30)
}
