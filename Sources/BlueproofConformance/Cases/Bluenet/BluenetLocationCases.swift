import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofWire

/// BLN/LOC on the air (bluenet-lib-ios README, "Bluenet Localization": "Events", "Methods",
/// "Fingerprint"): three iBeacons 2 m around the subject behind the radio proxy (the
/// ``BluenetBeaconReadingCases/crowd`` scenario). A location is the set of beacons heard: set 0
/// is location "A" (minors 1–3 on nodes 1–3), set 1 "B" (minors 11–13 on the same nodes), set 2
/// "C"; moving means the nodes advertising the next set, so no case depends on walking time.
enum BluenetLocationCases {
    typealias Beacons = BluenetBeaconCases
    static let scenario = BluenetBeaconReadingCases.crowd
    static let locations = ["A", "B", "C"]
    /// The beacon nodes; the profile's minimum for a prediction must not exceed their count.
    static let beaconNodes = 1...3

    static func beacon(set: Int, node: Int) -> IBeacon {
        var beacon = Beacons.beacon
        (beacon.major, beacon.minor) = (1, UInt16(set * 10 + node))
        return beacon
    }

    static func idStrings(set: Int, nodes: ClosedRange<Int> = beaconNodes) -> Set<String> { Set(nodes.map { beacon(set: set, node: $0).idString }) }

    /// A fingerprint of location `set` as its stringified JSON: three samples around the -65 dBm
    /// a beacon 2 m away gives (-59 dBm at 1 m, exponent 2).
    static func fingerprint(set: Int) -> String {
        BluenetPublication.canonical(Dictionary(uniqueKeysWithValues: idStrings(set: set).map { ($0, [-64, -65, -66]) })) ?? "{}"
    }

    /// Loads the case-made fingerprints of `sets` for the tracked group.
    static func load(_ stage: BluenetStage, _ sets: [Int]) async throws {
        for set in sets {
            try await stage.subject.loadFingerprint(groupId: Beacons.group, locationId: locations[set], fingerprint: fingerprint(set: set))
        }
    }

    /// Has `nodes` advertise location `set`'s beacons (restarting with the new data) and waits for
    /// a ranging round that heard exactly them; none within ``BluenetStage/airWait`` is a precondition not met.
    @discardableResult
    static func place(_ stage: BluenetStage, set: Int, nodes: ClosedRange<Int> = beaconNodes) async throws -> Int {
        let start = stage.publications.events.count
        for node in nodes {
            try await stage.context.host(node).startAdvertising(LEAdvertisingParameters(
                data: try beacon(set: set, node: node).advertisingData.encodedLegacy(), connectable: false))
        }
        return try await heard(stage, idStrings(set: set, nodes: nodes), from: start)
    }

    /// The index of the first ranging round from `start` that heard exactly `expected`. Every
    /// one of them ranged, but never in one round, breaks "iBeaconAdvertisement: the ranged
    /// beacons, once a second" (``BluenetCaseStopped/ruleBroken(_:)``); some never ranged is a precondition not met.
    static func heard(_ stage: BluenetStage, _ expected: Set<String>, from start: Int) async throws -> Int {
        let round = await stage.publications.first(within: BluenetStage.airWait, from: start) {
            $0.topic == .iBeaconAdvertisement && $0.subscription == nil && Set(ranged(in: $0)) == expected
        }
        guard let round, let index = stage.publications.events.firstIndex(of: round) else {
            let rounds = stage.publications.events.dropFirst(start).filter { $0.topic == .iBeaconAdvertisement && $0.subscription == nil }
            if expected.isSubset(of: rounds.flatMap(ranged)) {
                throw BluenetCaseStopped.ruleBroken("\(expected.sorted()) were all ranged within \(BluenetStage.airWait), but never in one round: "
                    + "\(rounds.count) iBeaconAdvertisement(s) of \(rounds.map { ranged(in: $0).count }.max() ?? 0) packet(s) at most")
            }
            throw BluenetCaseStopped.preconditionNotMet("no ranging round of exactly \(expected.sorted()) within \(BluenetStage.airWait) of their advertising")
        }
        return index
    }

    /// The idStrings of a ranging round's packets.
    static func ranged(in round: BluenetPublication) -> [String] {
        (BluenetPublication.parseArray(round.object) ?? []).compactMap { $0["idString"] as? String }
    }

    /// How long the absence of a prediction is watched (BI-01, BI-02): five ranging rounds.
    static let predictionWait: Duration = .seconds(5)

    /// trackUUID, then location `set` in range.
    @discardableResult
    static func enter(_ stage: BluenetStage, set: Int, nodes: ClosedRange<Int> = beaconNodes) async throws -> Int {
        try await stage.subject.trackUUID(Beacons.uuid, groupId: Beacons.group)
        return try await place(stage, set: set, nodes: nodes)
    }

    /// The first `topic` event of the subject's own from `start` carrying `location` (any when nil).
    static func event(_ stage: BluenetStage, _ topic: BluenetTopic, _ location: String? = nil, from start: Int = 0,
                      within limit: Duration = BluenetStage.airWait) async -> BluenetPublication? {
        let wanted = location.map { "\"\($0)\"" }
        return await stage.publications.first(within: limit, from: start) {
            $0.topic == topic && $0.subscription == nil && (wanted == nil || $0.object == wanted)
        }
    }

    static let locationTopics: Set<BluenetTopic> = [.enterLocation, .exitLocation, .currentLocation]

    /// Waits `rounds` more ranging rounds of the subject's from publication `start`.
    static func rounds(_ stage: BluenetStage, _ rounds: Int, from start: Int) async throws {
        var from = start
        for _ in 0..<rounds {
            guard let round = await stage.publications.first(within: BluenetStage.airWait, from: from, where: {
                $0.topic == .iBeaconAdvertisement && $0.subscription == nil
            }), let index = stage.publications.events.firstIndex(of: round) else {
                throw BluenetCaseStopped.preconditionNotMet("ranging stopped: no round within \(BluenetStage.airWait)")
            }
            from = index + 1
        }
    }

    /// trackUUID with A in range, then a collection started and two rounds taken in.
    static func collecting(_ stage: BluenetStage) async throws {
        let start = try await enter(stage, set: 0)
        try await stage.subject.startCollectingFingerprint()
        try await rounds(stage, 2, from: start + 1)
    }

    /// The fingerprint stored for `location`, parsed (idString → RSSI values); nil when none or not that shape.
    static func stored(_ stage: BluenetStage, _ location: String) async -> (text: String, samples: [String: [Int]])? {
        guard let text = await stage.subject.getFingerprint(groupId: Beacons.group, locationId: location) else { return nil }
        let parsed = BluenetPublication.parse(text) ?? [:], samples = parsed.compactMapValues(BluenetPublication.integers)
        return (text, samples.count == parsed.count ? samples : [:])
    }
}
