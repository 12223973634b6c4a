import BlueproofBluenet
import BlueproofBluenetHost

/// The eleven BLN/LOC cases, in catalogue order.
extension BluenetLocationCases {
    static let all: [BluenetCase] = [
        BluenetCase("BLN/LOC/BI-01", nodes: 4, brokenBy: [.bluenetLocationBeforeFingerprint], radioScenario: scenario,
                    quietWindow: predictionWait) { stage in
            let start = try await enter(stage, set: 0)
            let early = await stage.publishedWhileQuiet(from: start, for: predictionWait) { locationTopics.contains($0.topic) && $0.subscription == nil }
            guard early.isEmpty else { return .fail("published \(early.map { "\($0.topic) \($0.object)" }) with no fingerprint loaded or finalized") }
            // Once a fingerprint is loaded, the same beacons give a location: the quiet was the rule.
            let loaded = stage.publications.events.count
            try await load(stage, [0])
            guard await event(stage, .currentLocation, "A", from: loaded) != nil else {
                throw BluenetCaseStopped.preconditionNotMet("no currentLocation \"A\" within \(BluenetStage.airWait) of loading A's fingerprint either")
            }
            return .pass("no location event in \(predictionWait) of ranging 3 beacons without a fingerprint; A once loaded")
        },
        BluenetCase("BLN/LOC/BI-02", nodes: 4, brokenBy: [.bluenetPredictsWithTwoBeacons], radioScenario: scenario,
                    quietWindow: predictionWait) { stage in
            let minimum = (try? stage.context.profile.int("bluenet.min_beacons_for_prediction")) ?? 3
            guard (2...beaconNodes.count).contains(minimum) else {
                throw BluenetCaseStopped.preconditionNotMet("bluenet.min_beacons_for_prediction \(minimum): the case has \(beaconNodes.count) beacons")
            }
            try await load(stage, [0])
            let start = try await enter(stage, set: 0, nodes: 1...(minimum - 1))
            let predicted = await stage.publishedWhileQuiet(from: start, for: predictionWait) { locationTopics.contains($0.topic) && $0.subscription == nil }
            guard predicted.isEmpty else { return .fail("with \(minimum - 1) beacons in range: \(predicted.map { "\($0.topic) \($0.object)" })") }
            let more = try await place(stage, set: 0, nodes: 1...minimum)
            guard await event(stage, .currentLocation, "A", from: more) != nil else {
                throw BluenetCaseStopped.preconditionNotMet("no currentLocation \"A\" within \(BluenetStage.airWait) with \(minimum) beacons in range either")
            }
            return .pass("no prediction from \(minimum - 1) beacons in \(predictionWait); A from \(minimum)")
        },
        {
            // Leaving the region takes the reference 30 s (BluenetBeaconCases.referenceRegionExit).
            var leaving = BluenetCase("BLN/LOC/BI-03", nodes: 4, brokenBy: [.bluenetExitLocationOnRegionExit], radioScenario: scenario) { stage in
                try await load(stage, [0])
                let start = try await enter(stage, set: 0)
                guard let entered = await event(stage, .enterLocation, "A", from: start),
                      let index = stage.publications.events.firstIndex(of: entered) else {
                    throw BluenetCaseStopped.preconditionNotMet("no enterLocation \"A\" within \(BluenetStage.airWait) of A's beacons in range")
                }
                for node in beaconNodes { try await stage.context.host(node).stopAdvertising() }
                guard await event(stage, .exitRegion, Beacons.group, from: index, within: Beacons.regionExitWait) != nil else {
                    throw BluenetCaseStopped.preconditionNotMet("no exitRegion within \(Beacons.regionExitWait) of every beacon going quiet")
                }
                // An exitLocation right behind the exitRegion (the same tick or a round later) counts too.
                if let exit = await stage.publications.first(within: BluenetStage.quietWait, from: index, where: { $0.topic == .exitLocation && $0.subscription == nil }) {
                    return .fail("leaving the region published exitLocation \(exit.object)")
                }
                return .pass("exitRegion without exitLocation, none in \(BluenetStage.quietWait) after it either")
            }
            leaving.timeout = .seconds(90)
            leaving.quietWindow = Beacons.referenceRegionExit
            return leaving
        }(),
        BluenetCase("BLN/LOC/BI-04", nodes: 4, brokenBy: [.bluenetAbortKeepsSamples], radioScenario: scenario, quietWindow: BluenetStage.timerWait(3)) { stage in
            try await collecting(stage)
            await stage.subject.abortCollectingFingerprint()
            let finalized = (try? await stage.subject.finalizeFingerprint(groupId: Beacons.group, locationId: "aborted")) != nil
            if let left = await stored(stage, "aborted") {
                return .fail("after abort, finalize \(finalized ? "succeeded" : "was refused") and getFingerprint returned \(left.text)")
            }
            return .pass("after abort, getFingerprint has nothing (finalize \(finalized ? "succeeded" : "was refused"))")
        },
        BluenetCase("BLN/LOC/BV-01", nodes: 4, brokenBy: [.bluenetNeedsFourBeacons, .bluenetRangingPerBeacon], radioScenario: scenario, quietWindow: BluenetStage.timerWait(1)) { stage in
            let minimum = (try? stage.context.profile.int("bluenet.min_beacons_for_prediction")) ?? 3
            guard beaconNodes.contains(minimum) else {
                throw BluenetCaseStopped.preconditionNotMet("bluenet.min_beacons_for_prediction \(minimum): the case has \(beaconNodes.count) beacons")
            }
            try await load(stage, [0])
            let start = try await enter(stage, set: 0, nodes: 1...minimum)
            guard let located = await event(stage, .currentLocation, from: start) else {
                return .fail("no currentLocation within \(BluenetStage.airWait) with \(minimum) beacons of a loaded fingerprint in range")
            }
            return .pass("currentLocation \(located.object) with \(minimum) beacons in range")
        },
        BluenetCase("BLN/LOC/BV-02", nodes: 4, brokenBy: [.bluenetCurrentLocationOnChangeOnly], radioScenario: scenario,
                    quietWindow: BluenetStage.intervalWatch) { stage in
            try await load(stage, [0])
            let start = try await enter(stage, set: 0)
            guard let first = await event(stage, .currentLocation, "A", from: start) else {
                throw BluenetCaseStopped.preconditionNotMet("no currentLocation \"A\" within \(BluenetStage.airWait) of A's beacons in range")
            }
            return .judged(await stage.everyInterval(after: first), "currentLocation")
        },
        BluenetCase("BLN/LOC/BV-03", nodes: 4, brokenBy: [.bluenetExitLocationMissing, .bluenetLocationEnteredEveryRound], radioScenario: scenario,
                    quietWindow: BluenetStage.timerWait(4)) { stage in
            try await load(stage, [0, 1])
            let start = try await enter(stage, set: 0)
            guard let inA = await event(stage, .enterLocation, "A", from: start), let fromA = stage.publications.events.firstIndex(of: inA) else {
                throw BluenetCaseStopped.preconditionNotMet("no enterLocation \"A\" within \(BluenetStage.airWait) of A's beacons in range")
            }
            // Two rounds in A before moving: entered once, not again while there.
            try await rounds(stage, 2, from: fromA + 1)
            try await place(stage, set: 1)
            guard let inB = await event(stage, .enterLocation, "B", from: fromA), let toB = stage.publications.events.firstIndex(of: inB) else {
                return .fail("no enterLocation \"B\" within \(BluenetStage.airWait) of B's beacons replacing A's")
            }
            let between = stage.publications.events[(fromA + 1)..<toB].filter { $0.subscription == nil }
            let exits = between.filter { $0.topic == .exitLocation }, reentries = between.filter { $0.topic == .enterLocation }
            guard reentries.isEmpty else {
                return .fail("in A, before moving to B: enterLocation \(reentries.map(\.object)) again after enterLocation \"A\"")
            }
            guard exits.map(\.object) == ["\"A\""] else {
                return .fail("between enterLocation A and enterLocation B: exitLocation \(exits.map(\.object)), not once \"A\"")
            }
            return .pass("enterLocation \"A\" once, exitLocation \"A\" then enterLocation \"B\"")
        },
        BluenetCase("BLN/LOC/BV-04", nodes: 4, brokenBy: [.bluenetFinalizeDiscards, .bluenetFinalizeKeepsLastRound, .bluenetFingerprintRSSIMagnitude],
                    radioScenario: scenario, quietWindow: BluenetStage.timerWait(5)) { stage in
            try await collecting(stage)
            // Two rounds published after startCollecting returned (the ones `collecting` waited
            // for may have been published before it took effect): at least two were collected.
            try await rounds(stage, 2, from: stage.publications.events.count)
            try await stage.subject.finalizeFingerprint(groupId: Beacons.group, locationId: "A")
            guard let fingerprint = await stored(stage, "A") else { return .fail("getFingerprint(\(Beacons.group), A) is nil after finalizeFingerprint") }
            let expected = idStrings(set: 0)
            guard Set(fingerprint.samples.keys) == expected, fingerprint.samples.values.allSatisfy({ !$0.isEmpty }) else {
                return .fail("getFingerprint returned \(fingerprint.text), not RSSI values for each of \(expected.sorted())")
            }
            if let (beacon, values) = fingerprint.samples.first(where: { $0.value.count < 2 }) {
                return .fail("after two ranging rounds collected, the fingerprint holds \(values.count) RSSI value(s) of \(beacon): \(fingerprint.text)")
            }
            if let (beacon, values) = fingerprint.samples.first(where: { !$0.value.allSatisfy(Beacons.heardRSSI.contains) }) {
                return .fail("the fingerprint's RSSI values of \(beacon) are \(values), not the levels it was heard at (about -65 dBm, "
                    + "\(Beacons.heardRSSI.lowerBound) to \(Beacons.heardRSSI.upperBound))")
            }
            return .pass("getFingerprint: \(fingerprint.text)")
        },
        BluenetCase("BLN/LOC/BV-05", nodes: 4, brokenBy: [.bluenetResumeRestarts], radioScenario: scenario, quietWindow: BluenetStage.timerWait(8)) { stage in
            // A before the pause, B during it, C after the resume: one fingerprint of A and C.
            try await collecting(stage)
            try await stage.subject.pauseCollectingFingerprint()
            try await rounds(stage, 1, from: try await place(stage, set: 1) + 1)
            try await place(stage, set: 2)
            try await stage.subject.resumeCollectingFingerprint()
            try await rounds(stage, 2, from: stage.publications.events.count)
            try await stage.subject.finalizeFingerprint(groupId: Beacons.group, locationId: "AC")
            guard let fingerprint = await stored(stage, "AC") else { return .fail("getFingerprint is nil after pause, resume and finalize") }
            let (keys, wanted) = (Set(fingerprint.samples.keys), idStrings(set: 0).union(idStrings(set: 2)))
            guard keys == wanted else {
                return .fail("the fingerprint holds \(keys.sorted()), not A's before the pause and C's after the resume (\(wanted.sorted())) without B's")
            }
            return .pass("one fingerprint of the rounds before the pause and after the resume")
        },
        BluenetCase("BLN/LOC/BV-06", nodes: 1, brokenBy: [.bluenetFingerprintKeepsLastSample]) { stage in
            let text = fingerprint(set: 0)
            try await stage.subject.loadFingerprint(groupId: Beacons.group, locationId: "A", fingerprint: text)
            guard let back = await stored(stage, "A"), BluenetPublication.canonical(back.samples) == text else {
                return .fail("loaded \(text), getFingerprint returned \(await stage.subject.getFingerprint(groupId: Beacons.group, locationId: "A") ?? "nil")")
            }
            return .pass("the fingerprint built from \(text) stringifies to the same data")
        },
        BluenetCase("BLN/LOC/BV-07", nodes: 4, brokenBy: [.bluenetLoadedFingerprintIgnored], radioScenario: scenario, quietWindow: BluenetStage.timerWait(3)) { stage in
            try await load(stage, [0, 1])
            let start = try await enter(stage, set: 0)
            guard await event(stage, .currentLocation, "A", from: start) != nil else {
                return .fail("no currentLocation \"A\" within \(BluenetStage.airWait) of A's beacons in range, with A and B loaded")
            }
            let moved = try await place(stage, set: 1)
            guard await event(stage, .currentLocation, "B", from: moved) != nil else {
                return .fail("no currentLocation \"B\" within \(BluenetStage.airWait) of B's beacons replacing A's")
            }
            return .pass("loaded fingerprints: currentLocation A, then B")
        },
    ]
}
