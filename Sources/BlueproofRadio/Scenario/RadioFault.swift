import BlueproofWire

/// One fault of a scenario's script, on one node's host↔controller link.
public struct RadioFault: Hashable, Sendable {
    /// The node whose link the fault acts on.
    public var node: Int
    public var action: Action
    /// What the times of a timed action (disconnect, hardware error, withheld credits) count from.
    public var origin: Origin

    public init(node: Int, action: Action, origin: Origin = .start) {
        self.node = node
        self.action = action
        self.origin = origin
    }

    /// The zero of a timed action's times.
    public enum Origin: String, Hashable, Sendable {
        /// When the world started.
        case start
        /// When the node's first connection completed (LE Connection Complete with success,
        /// Core Vol 4, Part E §7.7.65.1): a fault meant to act mid-transfer then does so however
        /// long the controllers took to open and connect.
        case connection
    }

    public enum Action: Hashable, Sendable {
        /// Events from the controller that match are not delivered to the host, while `window`
        /// is open and at most `count` times (every time when nil).
        case drop(RadioEventMatch, window: RadioWindow, count: Int?)
        /// Events from the controller that match reach the host `by` later.
        case delay(RadioEventMatch, by: Duration, window: RadioWindow, count: Int?)
        /// Number Of Completed Packets (Core Vol 4, Part E §7.7.19) arriving in the window are
        /// held back and delivered as one event, summed per handle, when it closes.
        case withholdCredits(from: Duration, for: Duration)
        /// The answer to LE Read Buffer Size (§7.8.2, and [v2] §7.8.93) reports at most this
        /// packet length and count.
        case bufferSize(length: UInt16?, count: UInt8?)
        /// At `at`, every connection of the node ends with `reason`: Disconnection Complete
        /// (§7.7.5) to the host, HCI Disconnect (§7.1.6) to the controller so the peer agrees.
        case disconnect(at: Duration, reason: HCIStatus)
        /// At `at`, a Hardware Error event (§7.7.16) reaches the host.
        case hardwareError(at: Duration, code: UInt8)
    }
}

/// Which events a drop or delay fault matches: by name as btmon prints it (``HCIEvent/name``,
/// an LE Meta event by its sub-event's name), or by event code.
public enum RadioEventMatch: Hashable, Sendable, CustomStringConvertible {
    case name(String)
    case code(UInt8)

    public func matches(_ event: HCIEvent) -> Bool {
        switch self {
        case let .name(name): event.name.lowercased() == name.lowercased()
        case let .code(code): event.code == code
        }
    }

    public var description: String {
        switch self {
        case let .name(name): name
        case let .code(code): "event 0x\(String(code, radix: 16, uppercase: true))"
        }
    }
}

/// A span of run time; an open end is unbounded.
public struct RadioWindow: Hashable, Sendable {
    public var from: Duration?
    public var until: Duration?

    public init(from: Duration? = nil, until: Duration? = nil) {
        self.from = from
        self.until = until
    }

    public static let always = RadioWindow()

    public func contains(_ time: Duration) -> Bool {
        (from.map { time >= $0 } ?? true) && (until.map { time < $0 } ?? true)
    }
}
