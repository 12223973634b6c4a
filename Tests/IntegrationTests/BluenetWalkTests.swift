import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofRadio
import BlueproofTestSupport
import BlueproofWire
import Foundation
import Synchronization
import Testing

extension Integration {
    /// The localization figure on the air (issue 18, "a simulated building"): the reference
    /// Bluenet library on node 0 of btvirt behind the radio proxy walks through four 6 m × 5 m
    /// rooms in a row, two iBeacons in each (nodes 1–8, minor = node), path loss -59 dBm at 1 m,
    /// exponent 2.5, Gaussian noise 4 dB. It collects a fingerprint per room on a first walk
    /// (start on entering, finalize on leaving), then walks other points; each currentLocation of
    /// the second walk is judged against the room the walk was in half a second before (the
    /// middle of the ranging round). The same building as `SimulatedWalkTests`, in real time.
    @Suite("Bluenet localization walk on the air")
    struct BluenetWalkTests {
        static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
        static let rooms = 4
        static let roomWidth = 6.0
        static let dwell = 4
        static let trainingPoints: [(Double, Double)] = [(1.5, 1.5), (4.5, 1.5), (4.5, 3.5), (1.5, 3.5), (3, 2.5)]
        static let testPoints: [(Double, Double)] = [(2.5, 2.5), (3.5, 1), (5, 3), (1, 4), (3, 4)]
        /// When the second walk starts (seconds of the world): the first, and 4 s to get back to room 0.
        static let testStart = rooms * trainingPoints.count * dwell + dwell
        static let testEnd = testStart + rooms * testPoints.count * dwell

        static var yaml: String {
            var lines = ["seed: 4", "advertising-interval: 100ms", "sensitivity: -100", "nodes:", "  - name: walker", "    path:"]
            for (points, start) in [(trainingPoints, 0), (testPoints, testStart)] {
                var at = start
                for room in 0..<rooms {
                    for (x, y) in points {
                        lines.append("      - {at: \(at)s, position: [\(Double(room) * roomWidth + x), \(y)]}")
                        at += dwell
                    }
                }
            }
            for room in 0..<rooms {
                for (index, (x, y)) in [(1.0, 1.0), (5.0, 4.0)].enumerated() {
                    lines += ["  - name: beacon\(2 * room + index + 1)", "    position: [\(Double(room) * roomWidth + x), \(y)]"]
                }
            }
            lines += ["rssi:", "  path-loss: {tx-power: -59, exponent: 2.5, noise: {gaussian: 4}}"]
            return lines.joined(separator: "\n") + "\n"
        }

        /// The room the walker is in at `time` of the world.
        static func room(_ scenario: RadioScenario, at time: Duration) -> Int {
            min(rooms - 1, max(0, Int(scenario.model.path(of: 0).position(at: time).x / roomWidth)))
        }

        @Test("btvirt behind the radio proxy: fingerprints from one walk place a second walk in the right room (the figure)",
              .requires(.btvirt, .preload), .timeLimit(.minutes(5)))
        func classifiesASecondWalk() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let scenario = try RadioScenario.load(yaml: Self.yaml)
            let folder = try WorkFolder("bluenet-walk")
            defer { folder.cleanUp() }
            let clock = ContinuousClock()
            let world = RadioWorld(scenario: scenario)
            let origin = clock.now
            defer { world.shutdown() }
            let located = Mutex<[(at: Duration, location: String)]>([])
            try await withBackend(.btvirt, in: folder.file("btvirt")) { backend in
                var hosts: [LEHost] = []
                do {
                    for node in 0...(2 * Self.rooms) {
                        let host = LEHost(controller: HCIController(transport: world.attach(node: node, to: try await backend.openController(capture: nil))))
                        hosts.append(host)
                        try await host.start()
                    }
                    for node in 1...(2 * Self.rooms) {
                        let beacon = IBeacon(proximityUUID: try #require(BluetoothUUID(Self.uuid)), major: 1, minor: UInt16(node), measuredPower: -59)
                        try await hosts[node].startAdvertising(LEAdvertisingParameters(data: try beacon.advertisingData.encodedLegacy(), connectable: false))
                    }
                    let bluenet = BluenetHost(host: hosts[0])
                    await bluenet.hostStarted()
                    await bluenet.on(.currentLocation) { event in
                        guard case let .currentLocation(id) = event else { return }
                        located.withLock { $0.append((origin.duration(to: clock.now), id)) }
                    }
                    try await bluenet.trackUUID(Self.uuid, groupId: "building")
                    // About time: the walk is the world's; the collection follows it second by second.
                    var collecting: Int?
                    var second = 0
                    while second < Self.testStart - Self.dwell {
                        let room = Self.room(scenario, at: origin.duration(to: clock.now))
                        if collecting != room {
                            if let collecting { try await bluenet.finalizeFingerprint(groupId: "building", locationId: "room \(collecting)") }
                            try await bluenet.startCollectingFingerprint()
                            collecting = room
                        }
                        second += 1
                        try await clock.sleep(until: origin + .seconds(second))
                    }
                    if let collecting { try await bluenet.finalizeFingerprint(groupId: "building", locationId: "room \(collecting)") }
                    try await clock.sleep(until: origin + .seconds(Self.testEnd))
                    await bluenet.stop()
                } catch {
                    for host in hosts { await host.close() }
                    throw error
                }
                for host in hosts { await host.close() }
            }
            var tally = Array(repeating: (correct: 0, total: 0), count: Self.rooms)
            let events = located.withLock { $0 }.filter { $0.at >= .seconds(Self.testStart + 1) && $0.at < .seconds(Self.testEnd) }
            for event in events {
                let truth = Self.room(scenario, at: event.at - .milliseconds(500))
                tally[truth].total += 1
                if event.location == "room \(truth)" { tally[truth].correct += 1 }
            }
            let correct = tally.reduce(0) { $0 + $1.correct }, total = tally.reduce(0) { $0 + $1.total }
            let perRoom = tally.enumerated().map { "room \($0.offset) \($0.element.correct)/\($0.element.total)" }.joined(separator: ", ")
            print("Bluenet localization on the air, 4 dB noise: \(correct)/\(total) predictions in the right room (\(perRoom)) over \(Self.testEnd - Self.testStart - 1) s")
            #expect(total >= (Self.testEnd - Self.testStart) * 3 / 4, "predictions in \(Self.testEnd - Self.testStart) s: \(total)")
            #expect(Double(correct) >= 0.9 * Double(total), "\(perRoom)")
        }
    }
}
