import BlueproofBluenet
import BlueproofRadio
import BlueproofWire
import Foundation
import Testing

/// BLN/LOC/BV-01, BV-07 on a synthetic building: four 6 m × 5 m rooms in a row, two beacons in
/// each, log-distance path loss (−59 dBm at 1 m, exponent 2.5) with seeded Gaussian noise of
/// 4 dB (the radio proxy's model, ``RadioModel``). Fingerprints are collected on one walk through
/// the rooms (per room: start on entering, finalize on leaving) and a second walk, on other
/// points with another seed, is classified second by second.
@Suite("Bluenet localization on a simulated walk")
struct SimulatedWalkTests {
    static let rooms = 4
    static let roomWidth = 6.0
    /// Beacon `1 + 2 * room` and `2 + 2 * room`: minor = node number.
    static let beacons: [RadioPosition] = (0..<rooms).flatMap { room in
        [RadioPosition(x: Double(room) * roomWidth + 1, y: 1), RadioPosition(x: Double(room) * roomWidth + 5, y: 4)]
    }
    /// Points visited in each room (offsets within the room), 4 s apart.
    static let trainingPoints: [(Double, Double)] = [(1.5, 1.5), (4.5, 1.5), (4.5, 3.5), (1.5, 3.5), (3, 2.5)]
    static let testPoints: [(Double, Double)] = [(2.5, 2.5), (3.5, 1), (5, 3), (1, 4), (3, 4)]

    static func walk(_ points: [(Double, Double)]) -> RadioPath? {
        var waypoints: [RadioPath.Waypoint] = []
        for room in 0..<rooms {
            for (x, y) in points {
                waypoints.append(.init(at: .seconds(4 * waypoints.count), position: RadioPosition(x: Double(room) * roomWidth + x, y: y)))
            }
        }
        return RadioPath(waypoints: waypoints)
    }

    static func model(seed: UInt64, walk: RadioPath, sigma: Double) -> RadioModel {
        var paths = [0: walk]
        for (index, position) in beacons.enumerated() { paths[index + 1] = RadioPath(at: position) }
        return RadioModel(seed: seed, paths: paths, defaultLink: .pathLoss(.init(txPower: -59, exponent: 2.5, noise: .gaussian(sigma: sigma))))
    }

    static func room(_ model: RadioModel, at time: Duration) -> Int {
        min(rooms - 1, max(0, Int(model.path(of: 0).position(at: time).x / roomWidth)))
    }

    /// Feeds one second of advertisements (three per beacon in range) and ticks the core, whose
    /// clock stands `clock` ahead of the walk's.
    static func second(_ core: inout BluenetLocalization, _ model: RadioModel, _ time: Duration, clock: Duration = .zero) {
        for sample in 0..<3 {
            let at = time + .milliseconds(333 * sample)
            for node in 1...beacons.count where model.inRange(0, node, at: at) {
                let beacon = IBeacon(proximityUUID: BluetoothUUID(LocalizationHarness.uuid) ?? BluetoothUUID(uuid16: 0),
                                     major: 1, minor: UInt16(node), measuredPower: -59)
                core.receive(beacon, rssi: Int(model.rssi(observer: 0, advertiser: node, at: at)))
            }
        }
        core.tick(now: clock + time + .seconds(1))
    }

    /// Correct seconds and all seconds per room of the test walk.
    static func accuracy(sigma: Double) throws -> [(correct: Int, total: Int)] {
        let seconds = rooms * trainingPoints.count * 4
        var core = BluenetLocalization()
        try core.trackUUID(LocalizationHarness.uuid, groupId: "building")
        core.tick(now: .zero)
        let training = model(seed: 1, walk: try #require(walk(trainingPoints)), sigma: sigma)
        var collecting: Int?
        for second in 0..<seconds {
            let time = Duration.seconds(second)
            let room = room(training, at: time)
            if collecting != room {
                if let collecting { try core.finalizeFingerprint(groupId: "building", locationId: "room \(collecting)") }
                try core.startCollectingFingerprint()
                collecting = room
            }
            Self.second(&core, training, time)
        }
        if let collecting { try core.finalizeFingerprint(groupId: "building", locationId: "room \(collecting)") }

        final class Last { var location: String? }
        let last = Last()
        core.on(.currentLocation) { event in if case let .currentLocation(id) = event { last.location = id } }
        let test = model(seed: 2, walk: try #require(walk(testPoints)), sigma: sigma)
        var tally = Array(repeating: (correct: 0, total: 0), count: rooms)
        for second in 0..<seconds {
            let time = Duration.seconds(second)
            last.location = nil
            // The localization's clock runs on from training; the walk's starts again at zero.
            Self.second(&core, test, time, clock: .seconds(seconds))
            let truth = room(test, at: time)
            tally[truth].total += 1
            if last.location == "room \(truth)" { tally[truth].correct += 1 }
        }
        return tally
    }

    /// The figure: correct room per room and overall at 4 dB noise (printed), at least 90% overall.
    @Test func classifiesAnotherWalkAtFourDecibelsOfNoise() throws {
        let tally = try Self.accuracy(sigma: 4)
        let correct = tally.reduce(0) { $0 + $1.correct }, total = tally.reduce(0) { $0 + $1.total }
        let perRoom = tally.enumerated().map { "room \($0.offset) \($0.element.correct)/\($0.element.total)" }.joined(separator: ", ")
        print("Bluenet localization, 4 dB noise: \(correct)/\(total) seconds in the right room (\(perRoom))")
        #expect(Double(correct) >= 0.9 * Double(total), "\(perRoom)")
    }

    /// For the note only: the same walks at 0, 8 and 12 dB of noise (printed, not judged).
    @Test func noiseSweepForTheNote() throws {
        for sigma in [0.0, 8, 12] {
            let tally = try Self.accuracy(sigma: sigma)
            print("Bluenet localization, \(sigma) dB noise: \(tally.reduce(0) { $0 + $1.correct })/\(tally.reduce(0) { $0 + $1.total }) seconds in the right room")
        }
    }
}
