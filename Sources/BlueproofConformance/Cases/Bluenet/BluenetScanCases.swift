import BlueproofAsync
import BlueproofBluenet
import BlueproofBluenetHost
import Foundation

/// BLN/SCAN (bluenet-lib-ios README, "Methods", "Advertisement", "Data Objects"): what the
/// subject publishes on "advertisementData" while a plain device (node 1) and a simulated
/// Crownstone (node 2) advertise. btvirt reports an advertiser when its advertising starts, so
/// the testers start after the subject's scan.
enum BluenetScanCases {
    /// The plain device (node 1) and the Crownstone (node 2) 2 m from the subject, their
    /// advertisements and scan responses repeated every 100 ms (btvirt reports each once).
    static let pair = BluenetStage.scenario(testers: [("plain", 2, 0), ("crownstone", 0, 2)])

    static let all: [BluenetCase] = [
        BluenetCase("BLN/SCAN/BV-01", nodes: 3, brokenBy: [.bluenetScanAllCrownstonesOnly, .bluenetScanResponseNotMerged],
                    radioScenario: pair, quietWindow: BluenetStage.quietWait) { stage in
            try await stage.subject.startScanning(.all)
            let plain = try await stage.plainDevice(1)
            let crownstone = try await stage.crownstone(2)
            var handles: [(what: String, handle: String, complete: @Sendable (BluenetPublication) -> Bool)] = []
            for (what, name, complete) in [("the plain device", plain, { @Sendable (p: BluenetPublication) in p.fields?["serviceData"] is [Any] }),
                                           ("the Crownstone", crownstone.name, { @Sendable (p: BluenetPublication) in p.isCrownstone })] {
                guard let first = await stage.advertisement(from: name) else {
                    return .fail("startScanning published nothing from \(what) \(name) within \(BluenetStage.airWait)")
                }
                guard let handle = first.handle, await stage.advertisement(from: name, withServiceData: true) != nil else {
                    return .fail("startScanning published \(what) \(name) but never with its scan response's service data within \(BluenetStage.airWait): \(first.object)")
                }
                handles.append((what, handle, complete))
            }
            // "advertisementData: when an advertisement packet is received", each in the shape of
            // its device: the proxy repeats both packets of each every 100 ms, and a device whose
            // scan response was heard keeps its service data in every later advertisement.
            let from = stage.publications.events.count
            let watched = await stage.publishedWhileQuiet(from: from) { $0.topic == .advertisementData }
            for (what, handle, complete) in handles {
                let published = watched.filter { $0.handle == handle }
                guard published.count >= 4 else {
                    return .fail("\(what) advertises twice every 100 ms, but startScanning published \(published.count) of its advertisements in \(BluenetStage.quietWait)")
                }
                if let partial = published.first(where: { !complete($0) }) {
                    return .fail("\(what) was published without the service data of its scan response, heard before: \(partial.object)")
                }
            }
            return .pass("startScanning published both the plain device and the Crownstone, every advertisement with its scan response's service data")
        },
        BluenetCase("BLN/SCAN/BV-02", nodes: 3, brokenBy: [.bluenetCrownstoneFilterIgnored], quietWindow: BluenetStage.quietWait) { stage in
            try await stage.subject.startScanning(.crownstones)
            // The plain device first: its report reaches the subject before the Crownstone's.
            let plain = try await stage.plainDevice(1)
            let crownstone = try await stage.crownstone(2)
            guard await stage.advertisement(from: crownstone.name) != nil else {
                return .fail("startScanningForCrownstones published nothing from the Crownstone \(crownstone.name) within \(BluenetStage.airWait)")
            }
            let others = await stage.publishedWhileQuiet { !$0.isCrownstone }
            guard others.isEmpty else {
                return .fail("startScanningForCrownstones published \(others.count) advertisement(s) without Crownstone service data (the plain device \(plain) has none), the first: \(others[0].object)")
            }
            return .pass("only the Crownstone was published")
        },
        BluenetCase("BLN/SCAN/BV-03", nodes: 3, brokenBy: [.bluenetServiceFilterIgnored], quietWindow: BluenetStage.quietWait) { stage in
            try await stage.subject.startScanning(.service(BluenetStage.plainService))
            // The Crownstone (no 180F) first: its report reaches the subject before the plain device's.
            let crownstone = try await stage.crownstone(2)
            let plain = try await stage.plainDevice(1)
            guard await stage.advertisement(from: plain) != nil else {
                return .fail("startScanningForService(\(BluenetStage.plainService)) published nothing from \(plain), which has it, within \(BluenetStage.airWait)")
            }
            let others = await stage.publishedWhileQuiet { $0.name != plain }
            guard others.isEmpty else {
                return .fail("startScanningForService(\(BluenetStage.plainService)) published \(others.count) advertisement(s) of devices without it (the Crownstone \(crownstone.name)): \(others[0].object)")
            }
            return .pass("only the device with service \(BluenetStage.plainService) was published")
        },
        BluenetCase("BLN/SCAN/BV-04", nodes: 3, brokenBy: [.bluenetPublishesAfterStop], quietWindow: BluenetStage.quietWait) { stage in
            try await stage.subject.startScanning(.all)
            let plain = try await stage.plainDevice(1)
            guard await stage.advertisement(from: plain, withServiceData: true) != nil else {
                throw BluenetCaseStopped.preconditionNotMet("startScanning published no scan response of \(plain) within \(BluenetStage.airWait)")
            }
            await stage.subject.stopScanning()
            // The Crownstone starts advertising after stopScanning returned: anything of it was published after.
            let crownstone = try await stage.crownstone(2)
            let name = crownstone.name
            let after = await stage.publishedWhileQuiet { $0.name == name }
            guard after.isEmpty else {
                return .fail("after stopScanning the subject published \(after.count) advertisement(s) of the Crownstone \(name), which started advertising after it: \(after[0].object)")
            }
            return .pass("nothing was published after stopScanning while the Crownstone \(crownstone.name) started advertising")
        },
        BluenetCase("BLN/SCAN/BV-05", nodes: 1, brokenBy: [.bluenetNeverReady]) { stage in
            let subject = stage.subject
            do {
                try await withTimeout(BluenetStage.airWait, what: "isReady() on an initialised BLE manager") { await subject.isReady() }
            } catch let timeout as TimeoutError {
                return .fail("\(timeout)")
            }
            return .pass("isReady fulfilled on the started host")
        },
        BluenetCase("BLN/SCAN/BV-06", nodes: 2, brokenBy: [.bluenetServiceDataSigned]) { stage in
            try await stage.subject.startScanning(.all)
            let plain = try await stage.plainDevice(1)
            guard let published = await stage.advertisement(from: plain, withServiceData: true) else {
                return .fail("startScanning published no service data of \(plain) within \(BluenetStage.airWait)")
            }
            let expected = BluenetStage.plainBytes.map(Int.init)
            guard let values = BluenetPublication.integers(published.fields?["serviceData"]), values == expected, values.allSatisfy({ (0...255).contains($0) }) else {
                return .fail("serviceData of \(plain) is not the advertised octets \(expected) as values 0-255: \(published.object)")
            }
            return .pass("serviceData is \(values)")
        },
        BluenetCase("BLN/SCAN/BV-07", nodes: 3, brokenBy: [.bluenetStringifyDropsRSSI]) { stage in
            try await stage.subject.startScanning(.all)
            let plain = try await stage.plainDevice(1)
            let crownstone = try await stage.crownstone(2)
            for name in [plain, crownstone.name] {
                guard let published = await stage.advertisement(from: name, withServiceData: true) else {
                    throw BluenetCaseStopped.preconditionNotMet("startScanning published nothing from \(name) within \(BluenetStage.airWait)")
                }
                guard let object = published.fields, let stringified = BluenetPublication.parse(published.stringified),
                      let left = BluenetPublication.canonical(object), left == BluenetPublication.canonical(stringified) else {
                    return .fail("the advertisement of \(name) and its stringified form differ: \(published.object) vs \(published.stringified)")
                }
            }
            return .pass("the JSON of both advertisements and their stringified forms agree")
        },
        BluenetCase("BLN/SCAN/BV-08", nodes: 2, brokenBy: [.bluenetCrownstoneIdBigEndian, .bluenetRSSIAsText]) { stage in
            try await stage.subject.startScanning(.all)
            let state = CrownstoneServiceData(crownstoneId: 0x0107, crownstoneStateId: 0x0203, switchState: 100, eventBitmask: 5,
                                              powerUsage: 1500, accumulatedEnergy: 123_456)
            let crownstone = try await stage.crownstone(1, state: state)
            guard let published = await stage.advertisement(from: crownstone.name, withServiceData: true) else {
                return .fail("startScanning published no service data of the Crownstone \(crownstone.name) within \(BluenetStage.airWait)")
            }
            let uuid = CrownstoneServiceData.plugServiceUUID.description
            let expected: [String: Any] = ["crownstoneId": "263", "crownstoneStateId": "515", "switchState": 100, "eventBitmask": 5,
                                           "reserved": 0, "powerUsage": 1500, "accumulatedEnergy": 123_456]
            guard let data = published.fields?["serviceData"] as? [String: Any], let fields = data[uuid] as? [String: Any],
                  let decoded = BluenetPublication.canonical(fields), decoded == BluenetPublication.canonical(expected) else {
                return .fail("the Crownstone's serviceData.\(uuid) is not \(expected) (as advertised): \(published.object)")
            }
            // "Advertisement": handle, name and rssi beside the service data. 127 is the HCI's
            // "RSSI not available" (btvirt reports it), else a level in dBm.
            guard let handle = published.handle, !handle.isEmpty, published.name == crownstone.name,
                  let rssi = BluenetPublication.integer(published.fields?["rssi"]), (-127...20).contains(rssi) || rssi == 127 else {
                return .fail("the Crownstone's advertisement lacks a handle, its name \(crownstone.name) or an integer rssi in dBm: \(published.object)")
            }
            return .pass("every Crownstone field decoded as advertised; handle \(handle), rssi \(rssi)")
        },
    ]
}
