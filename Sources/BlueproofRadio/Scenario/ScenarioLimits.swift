/// The ranges scenario values must fall in (docs/radio-proxy.md, "Scenario format"); a value
/// outside is refused at its line, naming the range. File-level limits (size, aliases, nesting)
/// are `SafeYAML`'s.
enum ScenarioLimits {
    /// Every duration (times, windows, delays, the advertising interval): at most a day. A run
    /// lasts minutes; the bound keeps nanosecond arithmetic far from overflowing `Int64`.
    static let maxDuration = Duration.seconds(86_400)
    /// The shortest advertising interval: 1 ms. Shorter would keep the proxy re-emitting
    /// reports without pause (the Core Specification's own minimum is 20 ms).
    static let minAdvertisingInterval = Duration.milliseconds(1)
    /// RSSI values, sensitivity and tx-power, in dBm: what an advertising report can carry
    /// (Core Vol 4, Part E §7.7.65.2).
    static let rssi: ClosedRange<Double> = -127...20
    /// The path-loss exponent: above 0 (2 in free space, up to 6 in obstructed buildings).
    static let exponent: ClosedRange<Double> = 0...10
    /// Noise sigma or amplitude, in dB: at most the width of the RSSI range and more.
    static let noise: ClosedRange<Double> = 0...100
    /// Position coordinates, in metres either way from the origin: 100 km, far beyond any
    /// BLE range, so distances stay exact.
    static let coordinate: ClosedRange<Double> = -100_000...100_000
    /// How many events a drop or delay acts on: a million, more than a day of reports at the
    /// default 100 ms interval.
    static let count: ClosedRange<Int> = 1...1_000_000
}
