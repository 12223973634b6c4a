import Foundation

/// Two nodes, in either order.
public struct RadioPair: Hashable, Sendable, CustomStringConvertible {
    public let low: Int
    public let high: Int

    public init(_ a: Int, _ b: Int) {
        low = min(a, b)
        high = max(a, b)
    }

    public var description: String { "\(low)-\(high)" }
}

/// The radio between the nodes of one run, as a pure function of time: the RSSI each node
/// hears from each other node, and whether they are in range. No clock, no I/O: the same
/// model and time give the same answer.
///
/// A pair is in range while its mean RSSI (without noise) is at or above ``sensitivity``; noise
/// only varies the reported values, so range does not flicker.
public struct RadioModel: Hashable, Sendable {
    public var seed: UInt64
    /// The weakest mean RSSI still received, dBm.
    public var sensitivity: Double
    /// Where each node is, by node index; a node without a path stands at the origin.
    public var paths: [Int: RadioPath]
    /// The model of pairs that ``links`` does not name.
    public var defaultLink: RadioLinkModel
    /// Per-pair models, symmetric.
    public var links: [RadioPair: RadioLinkModel]

    public init(seed: UInt64 = 0, sensitivity: Double = -90, paths: [Int: RadioPath] = [:],
                defaultLink: RadioLinkModel = .pathLoss(.init()), links: [RadioPair: RadioLinkModel] = [:]) {
        self.seed = seed
        self.sensitivity = sensitivity
        self.paths = paths
        self.defaultLink = defaultLink
        self.links = links
    }

    public func path(of node: Int) -> RadioPath { paths[node] ?? RadioPath(at: .origin) }

    public func link(_ a: Int, _ b: Int) -> RadioLinkModel { links[RadioPair(a, b)] ?? defaultLink }

    /// The RSSI without noise, dBm.
    public func meanRSSI(_ a: Int, _ b: Int, at time: Duration) -> Double {
        switch link(a, b) {
        case let .fixed(value):
            return value
        case .unmeasured:
            return .infinity
        case let .schedule(steps):
            return (steps.last { $0.at <= time } ?? steps.first)?.rssi ?? sensitivity
        case let .pathLoss(model):
            return model.meanRSSI(atDistance: path(of: a).position(at: time).distance(to: path(of: b).position(at: time)))
        }
    }

    /// What `observer`'s controller reports hearing `advertiser` at `time`: the mean RSSI plus
    /// the seeded noise, rounded to whole dBm and kept within -127...20 (Core Vol 4, Part E
    /// §7.7.65.2: RSSI is -127 to +20 dBm, 127 meaning not available).
    public func rssi(observer: Int, advertiser: Int, at time: Duration) -> Int8 {
        if case .unmeasured = link(observer, advertiser) { return 127 }
        var value = meanRSSI(observer, advertiser, at: time)
        if case let .pathLoss(model) = link(observer, advertiser) {
            value += model.noise.sample(seed: seed, observer: observer, advertiser: advertiser, at: time)
        }
        return Int8(min(max(value.rounded(), -127), 20))
    }

    public func inRange(_ a: Int, _ b: Int, at time: Duration) -> Bool {
        meanRSSI(a, b, at: time) >= sensitivity
    }

    /// The first whole millisecond after `time` at which the pair's range differs from what it
    /// is at `time`, or nil when it never changes again.
    public func nextRangeChange(_ a: Int, _ b: Int, after time: Duration) -> Duration? {
        let now = inRange(a, b, at: time)
        switch link(a, b) {
        case .fixed, .unmeasured:
            return nil
        case let .schedule(steps):
            return steps.first { $0.at > time && ($0.rssi >= sensitivity) != now }?.at
        case let .pathLoss(model):
            let limit = model.distance(forRSSI: sensitivity)
            var from = time
            while let crossing = crossing(a, b, within: limit, after: from) {
                let candidate = Self.millisecondAfter(crossing)
                if inRange(a, b, at: candidate) != now { return candidate }
                from = candidate
            }
            return nil
        }
    }

    /// The earliest range change of any pair among `nodes` after `time`.
    public func nextRangeChange(among nodes: [Int], after time: Duration) -> Duration? {
        var earliest: Duration?
        for (index, a) in nodes.enumerated() {
            for b in nodes[(index + 1)...] {
                if let next = nextRangeChange(a, b, after: time), earliest.map({ next < $0 }) ?? true { earliest = next }
            }
        }
        return earliest
    }

    /// The first time after `time` at which the distance between the nodes equals `limit`,
    /// solving |r + v·τ|² = limit² on each straight stretch of their relative motion.
    func crossing(_ a: Int, _ b: Int, within limit: Double, after time: Duration) -> Duration? {
        let breakpoints = Set(path(of: a).breakpoints + path(of: b).breakpoints).filter { $0 > time }.sorted()
        var start = time
        for end in breakpoints {
            defer { start = end }
            let span = (end - start) / .seconds(1)
            let r0 = relative(a, b, at: start)
            let r1 = relative(a, b, at: end)
            let v = RadioPosition(x: (r1.x - r0.x) / span, y: (r1.y - r0.y) / span)
            let qa = v.x * v.x + v.y * v.y
            guard qa > 0 else { continue }
            let qb = 2 * (r0.x * v.x + r0.y * v.y)
            let qc = r0.x * r0.x + r0.y * r0.y - limit * limit
            let discriminant = qb * qb - 4 * qa * qc
            guard discriminant >= 0 else { continue }
            let roots = [(-qb - discriminant.squareRoot()) / (2 * qa), (-qb + discriminant.squareRoot()) / (2 * qa)]
            if let tau = roots.filter({ $0 > 0 && $0 <= span }).min() {
                return start + .nanoseconds(Int64((tau * 1e9).rounded(.down)))
            }
        }
        return nil
    }

    private func relative(_ a: Int, _ b: Int, at time: Duration) -> RadioPosition {
        let pa = path(of: a).position(at: time)
        let pb = path(of: b).position(at: time)
        return RadioPosition(x: pb.x - pa.x, y: pb.y - pa.y)
    }

    static func millisecondAfter(_ time: Duration) -> Duration {
        let (seconds, attoseconds) = time.components
        return .seconds(seconds) + .milliseconds(attoseconds / 1_000_000_000_000_000 + 1)
    }
}
