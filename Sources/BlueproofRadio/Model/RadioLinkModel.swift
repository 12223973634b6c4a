import Foundation

/// How the RSSI between two nodes is found.
public enum RadioLinkModel: Hashable, Sendable {
    /// The same value all the time, dBm.
    case fixed(Double)
    /// Always in range, but the RSSI is not measured: reports carry 127, "not available"
    /// (Core Vol 4, Part E §7.7.65.2), as btvirt's do. Scenario text: `fixed: not-available`.
    case unmeasured
    /// Steps: from each entry's time on, its value (the first value also before it).
    case schedule([Step])
    /// Log-distance path loss from the nodes' positions:
    /// `rssi = txPower - 10 * exponent * log10(d / 1 m) + noise`, where `txPower` is the RSSI
    /// at one metre. Distances under ``PathLoss/minimumDistance`` count as that distance.
    case pathLoss(PathLoss)

    public struct Step: Hashable, Sendable {
        public var at: Duration
        public var rssi: Double

        public init(at: Duration, rssi: Double) {
            self.at = at
            self.rssi = rssi
        }
    }

    public struct PathLoss: Hashable, Sendable {
        /// The RSSI one metre away, dBm.
        public var txPower: Double
        /// The path-loss exponent n: 2 in free space, 2.7 to 4 indoors.
        public var exponent: Double
        public var noise: RadioNoise

        public static let minimumDistance = 0.1

        public init(txPower: Double = -59, exponent: Double = 2, noise: RadioNoise = .none) {
            self.txPower = txPower
            self.exponent = exponent
            self.noise = noise
        }

        /// The mean RSSI at `distance` metres, without noise.
        public func meanRSSI(atDistance distance: Double) -> Double {
            txPower - 10 * exponent * log10(max(distance, Self.minimumDistance))
        }

        /// The distance at which the mean RSSI equals `rssi`.
        public func distance(forRSSI rssi: Double) -> Double {
            pow(10, (txPower - rssi) / (10 * exponent))
        }
    }
}
