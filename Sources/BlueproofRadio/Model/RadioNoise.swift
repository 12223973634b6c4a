import BlueproofWire
import Foundation

/// Random variation added to a path-loss RSSI. Reproducible: the value for one pair at one
/// instant depends only on the scenario's seed, the pair and the instant, never on how many
/// values were drawn before, so the same run gives the same numbers whatever the scheduling.
public enum RadioNoise: Hashable, Sendable {
    /// No variation.
    case none
    /// Normally distributed with standard deviation `sigma` dB (Box–Muller).
    case gaussian(sigma: Double)
    /// Uniform in `-amplitude...amplitude` dB.
    case uniform(amplitude: Double)

    /// The variation, in dB, for `observer` hearing `advertiser` at `time`.
    public func sample(seed: UInt64, observer: Int, advertiser: Int, at time: Duration) -> Double {
        switch self {
        case .none:
            return 0
        case let .gaussian(sigma):
            var random = SplitMix64(seed: Self.key(seed, observer, advertiser, time))
            let u1 = max(random.nextUnit(), Double.leastNonzeroMagnitude)
            let u2 = random.nextUnit()
            return sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        case let .uniform(amplitude):
            var random = SplitMix64(seed: Self.key(seed, observer, advertiser, time))
            return amplitude * (2 * random.nextUnit() - 1)
        }
    }

    static func key(_ seed: UInt64, _ observer: Int, _ advertiser: Int, _ time: Duration) -> UInt64 {
        var mixer = SplitMix64(seed: seed)
        var key = mixer.next()
        for part in [UInt64(truncatingIfNeeded: observer), UInt64(truncatingIfNeeded: advertiser),
                     UInt64(bitPattern: time.components.seconds), UInt64(bitPattern: time.components.attoseconds)] {
            mixer = SplitMix64(seed: key ^ part)
            key = mixer.next()
        }
        return key
    }
}

extension SplitMix64 {
    /// A double in `0..<1` with 53 random bits.
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
