/// Decides whether a discovered peripheral is close enough to transfer to, sans I/O
/// (docs/corebluetooth-transfer-sample.md, "Discover Bluetooth Peripherals and Connect to Them":
/// the sample connects only when the RSSI is at least -50 dBm).
///
/// The RSSI comes from advertising reports, through ``LEHost/discover(services:_:)``; whatever
/// sits between host and controller (a radio proxy rewriting reports) decides what it is. A
/// controller that cannot measure reports 127, "not available" (Core Vol 4, Part E §7.7.65.2),
/// which the host passes on as nil: that never passes unless ``allowUnavailable`` is set
/// (btvirt reports nothing else). RSSI readings are negative with a theoretical maximum of
/// 0 dBm (same section): a report above ``maximum`` is no reading and never passes.
public struct RSSIGate: Hashable, Sendable {
    /// The weakest RSSI that passes, in dBm.
    public var minimum: Int
    /// The strongest RSSI that is a reading at all, in dBm: 0 in the sample.
    public var maximum: Int
    /// Whether an RSSI of "not available" passes.
    public var allowUnavailable: Bool

    public init(minimum: Int = -50, maximum: Int = 0, allowUnavailable: Bool = false) {
        self.minimum = minimum
        self.maximum = maximum
        self.allowUnavailable = allowUnavailable
    }

    /// The gate's answer for one report, with the reason in words.
    public struct Decision: Hashable, Sendable, CustomStringConvertible {
        public var passed: Bool
        /// The RSSI judged, nil for "not available".
        public var rssi: Int?
        public var reason: String

        public var description: String { "\(passed ? "pass" : "reject"): \(reason)" }
    }

    public func decide(rssi: Int?) -> Decision {
        guard let rssi else {
            return Decision(passed: allowUnavailable, rssi: nil, reason: allowUnavailable
                ? "RSSI not available, allowed by the profile"
                : "RSSI not available; the profile requires at least \(minimum) dBm")
        }
        if rssi > maximum {
            return Decision(passed: false, rssi: rssi, reason: "RSSI \(rssi) dBm > \(maximum) dBm: not a reading")
        }
        if rssi >= minimum {
            return Decision(passed: true, rssi: rssi, reason: "RSSI \(rssi) dBm ≥ \(minimum) dBm")
        }
        return Decision(passed: false, rssi: rssi, reason: "RSSI \(rssi) dBm < \(minimum) dBm: not in range")
    }
}
