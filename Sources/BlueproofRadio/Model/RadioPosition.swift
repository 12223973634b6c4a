/// A point on the plane, in metres.
public struct RadioPosition: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let origin = RadioPosition(x: 0, y: 0)

    public func distance(to other: RadioPosition) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }

    public var description: String { "(\(x), \(y)) m" }
}

/// Where a node is over time: still at one point, or walking straight between waypoints.
public struct RadioPath: Hashable, Sendable {
    /// One point the node passes at a given time since the run started.
    public struct Waypoint: Hashable, Sendable {
        public var at: Duration
        public var position: RadioPosition

        public init(at: Duration, position: RadioPosition) {
            self.at = at
            self.position = position
        }
    }

    /// In time order; never empty. Before the first the node stands at the first, after the
    /// last at the last, in between it moves at constant speed.
    public let waypoints: [Waypoint]

    public init(at position: RadioPosition) { waypoints = [Waypoint(at: .zero, position: position)] }

    /// Nil when `waypoints` is empty or not in strictly increasing time order.
    public init?(waypoints: [Waypoint]) {
        guard !waypoints.isEmpty, zip(waypoints, waypoints.dropFirst()).allSatisfy({ $0.at < $1.at }) else { return nil }
        self.waypoints = waypoints
    }

    public func position(at time: Duration) -> RadioPosition {
        guard let first = waypoints.first, time > first.at else { return waypoints[0].position }
        for (from, to) in zip(waypoints, waypoints.dropFirst()) where time <= to.at {
            let fraction = (time - from.at) / (to.at - from.at)
            return RadioPosition(x: from.position.x + (to.position.x - from.position.x) * fraction,
                                 y: from.position.y + (to.position.y - from.position.y) * fraction)
        }
        return waypoints[waypoints.count - 1].position
    }

    /// The waypoint times, where the velocity may change.
    var breakpoints: [Duration] { waypoints.map(\.at) }
}
