/// A radio scenario: the nodes and where they are, the RSSI between them, the range, how
/// often advertisements repeat, and the fault script. Loaded from YAML by
/// ``RadioScenario/load(yaml:file:)``; the format is in docs/radio-proxy.md.
public struct RadioScenario: Hashable, Sendable {
    /// Node names, by node index (the order of `nodes:` in the file).
    public var nodeNames: [String]
    /// RSSI and range (its seed seeds the noise).
    public var model: RadioModel
    /// How often the proxy repeats the last report of each advertiser in range to a scanning
    /// node (btvirt reports once per enable; real advertisers repeat at their interval).
    public var advertisingInterval: Duration
    public var faults: [RadioFault]

    public init(nodeNames: [String] = [], model: RadioModel = RadioModel(),
                advertisingInterval: Duration = .milliseconds(100), faults: [RadioFault] = []) {
        self.nodeNames = nodeNames
        self.model = model
        self.advertisingInterval = advertisingInterval
        self.faults = faults
    }

    /// Every pair at a fixed RSSI, always in range, no faults.
    public static func fixed(rssi: Double, nodes: Int = 2) -> RadioScenario {
        RadioScenario(nodeNames: (0..<nodes).map { "node\($0)" }, model: RadioModel(defaultLink: .fixed(rssi)))
    }

    /// The name of node `index`, or `node<index>`.
    public func name(of index: Int) -> String {
        index < nodeNames.count ? nodeNames[index] : "node\(index)"
    }
}
