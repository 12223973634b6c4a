import BlueproofBackend
import BlueproofTransfer
import Foundation

/// Everything one `blueproof run` needs, parsed and checked.
public struct RunConfiguration: Sendable {
    public var runID: String
    public var profile: Profile
    public var catalogue: Catalogue
    public var registry: CaseRegistry
    public var controller: BackendSpec
    public var filter: CaseFilter
    public var shard: Shard?
    /// Each selected case runs this many times.
    public var repeatCount: Int
    /// Reports go to `<reportsRoot>/<runID>/`.
    public var reportsRoot: String
    /// Captures go to `<capturesRoot>/<runID>/<case>/node<N>.pcap`.
    public var capturesRoot: String
    /// Controller logs, sockets and transmitter sessions; removed when the run ends unless
    /// `keepWorkDirectory`.
    public var workDirectory: String
    public var keepWorkDirectory = false
    /// Longest a case may take, topology included (its verdict is then `error`).
    public var caseTimeout: Duration
    /// `--dut`: an implementation under test. Its control protocol is not implemented yet:
    /// cases that need transmitters are then not-applicable.
    public var dut: String?
    public var transmitterProvider: (any TransmitterProvider)?
    /// `--dut-exec`: the implementation under test started by the runner on each case's
    /// device node (``CaseNeeds/deviceNode``), behind the radio proxy and the capture.
    public var dutExec: DUTExec?
    /// `--dut-address`: a device under test on the air, not behind the runner's controllers.
    public var airDevice: AirDevice?
    /// The transfer variant under test (``TransferFaults/none`` is the reference).
    public var transferFaults: TransferFaults
    /// Every timeout of the run and its cases runs on this clock.
    public var clock: any Clock<Duration>
    /// Cases run at once, each on its own controllers (``CaseSchedule``); 1: one after another.
    public var jobs = 1

    public init(runID: String = RunConfiguration.newRunID(), profile: Profile, catalogue: Catalogue, registry: CaseRegistry,
                controller: BackendSpec = .btvirt, filter: CaseFilter = CaseFilter([]), shard: Shard? = nil,
                repeatCount: Int = 1, reportsRoot: String = "Reports", capturesRoot: String = "Captures",
                workDirectory: String? = nil, caseTimeout: Duration = .seconds(60), dut: String? = nil,
                transmitterProvider: (any TransmitterProvider)? = nil, dutExec: DUTExec? = nil,
                transferFaults: TransferFaults = .none, clock: any Clock<Duration> = ContinuousClock()) {
        self.dutExec = dutExec
        self.runID = runID
        self.profile = profile
        self.catalogue = catalogue
        self.registry = registry
        self.controller = controller
        self.filter = filter
        self.shard = shard
        self.repeatCount = repeatCount
        self.reportsRoot = reportsRoot
        self.capturesRoot = capturesRoot
        self.workDirectory = workDirectory ?? "\(NSTemporaryDirectory())/bp-run-\(runID)"
        self.caseTimeout = caseTimeout
        self.dut = dut
        self.transmitterProvider = transmitterProvider
        self.transferFaults = transferFaults
        self.clock = clock
    }

    /// `20261122-143012-4f2a`: sortable, unique enough for one machine.
    public static func newRunID(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date) + "-" + String(UInt16.random(in: 0...UInt16.max), radix: 16)
    }

    /// The implemented cases this run selects, in catalogue order.
    public var selectedCases: [any ConformanceCase] {
        let order = Dictionary(catalogue.entries.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return registry.cases
            .filter { filter.matches($0.id) && (shard?.contains($0.id) ?? true) }
            .sorted { (order[$0.id] ?? .max, $0.id) < (order[$1.id] ?? .max, $1.id) }
    }

    public var reportFolder: String { "\(reportsRoot)/\(runID)" }
    public var captureFolder: String { "\(capturesRoot)/\(runID)" }
}
