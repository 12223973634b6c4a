import Foundation

/// Picks the location whose fingerprint best explains one ranging round (bluenet-lib-ios
/// README, "Bluenet Localization"). The document does not give the algorithm; this one is a
/// naive Bayes over beacons: each location models each beacon's RSSI as a normal distribution
/// (the fingerprint's mean and standard deviation, at least ``minimumDeviation``), and a beacon
/// heard but never seen in a location's fingerprint counts as heard at ``unseenRSSI``.
/// With fewer than `minimumBeacons` beacons in the round there is no prediction.
public struct LocationClassifier: Hashable, Sendable {
    struct Model: Hashable, Sendable {
        var mean: [String: Double]
        var deviation: [String: Double]
    }

    /// The spread assumed at least, dB: a fingerprint of near-constant values would otherwise
    /// rule its location out on one dB of difference.
    public static let minimumDeviation = 3.0
    /// The RSSI a location's model assumes for a beacon its fingerprint never heard, dBm.
    public static let unseenRSSI = -105.0
    static let unseenDeviation = 6.0

    public var minimumBeacons: Int
    private var models: [String: Model] = [:]

    public init(minimumBeacons: Int = 3) {
        self.minimumBeacons = minimumBeacons
    }

    public var locationIds: [String] { models.keys.sorted() }
    public var isEmpty: Bool { models.isEmpty }

    /// Sets (or replaces) `locationId`'s fingerprint.
    public mutating func load(_ locationId: String, _ fingerprint: Fingerprint) {
        var model = Model(mean: [:], deviation: [:])
        for (id, values) in fingerprint.samples where !values.isEmpty {
            let mean = Double(values.reduce(0, +)) / Double(values.count)
            let variance = values.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(values.count)
            model.mean[id] = mean
            model.deviation[id] = max(variance.squareRoot(), Self.minimumDeviation)
        }
        models[locationId] = model
    }

    /// The most likely location for one round of (idString, RSSI) readings; nil with fewer
    /// than ``minimumBeacons`` readings or no fingerprints. Ties go to the smallest location id.
    public func predict(_ readings: [String: Int]) -> String? {
        guard readings.count >= minimumBeacons, !models.isEmpty else { return nil }
        var best: (id: String, score: Double)?
        for id in locationIds {
            guard let model = models[id] else { continue }
            var score = 0.0
            // In a fixed order, so that the floating-point sum, and a tie, never depend on hashing.
            for (beacon, rssi) in readings.sorted(by: { $0.key < $1.key }) {
                let mean = model.mean[beacon] ?? Self.unseenRSSI
                let deviation = model.deviation[beacon] ?? Self.unseenDeviation
                let z = (Double(rssi) - mean) / deviation
                score -= z * z / 2 + log(deviation)
            }
            if best == nil || score > (best?.score ?? -.infinity) { best = (id, score) }
        }
        return best?.id
    }
}
