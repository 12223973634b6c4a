/// What a case needs from its topology; the runner gives each case a fresh one and marks a
/// case not-applicable when the preflight shows the controller cannot give it.
public struct CaseNeeds: Hashable, Sendable {
    /// Controllers (nodes) opened for the case, each with its own capture.
    public var controllers: Int
    /// Controller features the case relies on.
    public var features: Set<ControllerFeature>
    /// A radio-proxy scenario (YAML, docs/radio-proxy.md) every node runs behind.
    public var radioScenario: String?
    /// Nodes left out of the radio proxy (they see their controller's reports unchanged).
    public var unproxiedNodes: Set<Int>
    /// Transmitters the case drives through a ``TransmitterProvider`` (BFT cases).
    public var transmitters: Int
    /// Simultaneous LE links the busiest node holds (one per peer it connects to).
    public var linksPerNode: Int
    /// The node a device under test (`--dut-exec`) takes in a transfer case: the node of the
    /// role the case judges (0 the peripheral, 1 the central). nil: the case has no place for one.
    public var dutNode: Int?
    /// Whether the case can judge a device on the air (`--dut-address`) at ``dutNode`` from
    /// the reference's side alone: without the device's capture, without the radio proxy in
    /// front of it, without what it reports.
    public var judgesAirDevice: Bool
    /// The least time the case needs on the slowest backend (Rootcanal sends one ACL packet
    /// per connection event): the runner gives it at least this, whatever `--case-timeout` says.
    public var timeout: Duration? = nil
    /// State the whole process shares that the case changes or judges, said as the reason it
    /// runs with no other case beside it (`run --jobs N`); nil when it can share the process.
    public var processWideState: String? = nil
    /// A real-time wait of about this length that the case spends idle: watching for something
    /// that must not happen (a second delivery, an unasked handshake, a connection past the
    /// gate), or for a timer of the subject's that the runner cannot move (a region left 30 s
    /// after its beacon went quiet). It holds no processor while it waits, so `run --jobs N` lets
    /// such cases wait beside the N working ones (``CaseSchedule``); nil when the case has none.
    public var quietWindow: Duration? = nil
    // issue 17: Spark data connections
    /// Whether the case drives a subject on node 0 through the control protocol other than a
    /// transmitter (the SPK cases' Spark subject): there an implementation under test goes.
    public var controlSubject = false

    public init(controllers: Int = 0, features: Set<ControllerFeature> = [], radioScenario: String? = nil,
                unproxiedNodes: Set<Int> = [], transmitters: Int = 0, linksPerNode: Int = 1, dutNode: Int? = nil,
                judgesAirDevice: Bool = false, timeout: Duration? = nil, processWideState: String? = nil,
                quietWindow: Duration? = nil) {
        self.timeout = timeout
        self.quietWindow = quietWindow
        self.processWideState = processWideState
        self.linksPerNode = linksPerNode
        self.judgesAirDevice = judgesAirDevice
        self.dutNode = dutNode
        self.controllers = controllers
        self.features = features
        self.radioScenario = radioScenario
        self.unproxiedNodes = unproxiedNodes
        self.transmitters = transmitters
    }

    /// Where a device under test goes: the case's own ``dutNode``, else node 0 of a
    /// transmitter case (its subject); nil when the case has no place for one.
    public var deviceNode: Int? { dutNode ?? (transmitters > 0 || controlSubject ? 0 : nil) }

    /// Two nodes, peripheral (node 0) and central (node 1), as the transfer cases use.
    public static let transferPair = CaseNeeds(controllers: 2)
}

/// A controller capability found by the preflight.
public enum ControllerFeature: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// LE extended advertising, scanning and connecting commands (Core Vol 4, Part E §7.8.53 on).
    case extendedAdvertising = "extended-advertising"

    public var description: String { rawValue }
}
