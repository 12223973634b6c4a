import BlueproofCapture
import BlueproofTransport
import BlueproofWire
import Foundation
import Synchronization

/// The implementation under test on one node of a case: the node's controller served on an
/// ``HCIBridge`` (through the radio proxy when the case has one; the node's capture records
/// the implementation's side of the link) and every launch of the program on it, one at a
/// time. The case's verdict is overridden by the runner when a launch crashed (`error`) or
/// said it does not play the role (`not-applicable`), see ``verdictOverride``.
public final class DUTNode: Sendable {
    public let node: Int
    public let exec: DUTExec
    let bridge: HCIBridge
    private let caseID: CaseID
    private let folder: String
    private let log: CaseLog
    private let launches = Mutex<[DUTLaunch]>([])
    private let startFailures = Mutex<[String]>([])
    /// The launch the bridge's packets are shown to.
    private let slot: LaunchSlot

    private init(node: Int, exec: DUTExec, bridge: HCIBridge, slot: LaunchSlot, caseID: CaseID, folder: String,
                 log: CaseLog) {
        self.node = node
        self.slot = slot
        self.exec = exec
        self.bridge = bridge
        self.caseID = caseID
        self.folder = folder
        self.log = log
    }

    /// Serves `transport` to the implementation on `tcp:127.0.0.1:PORT`, recording to `capture`.
    static func open(node: Int, exec: DUTExec, transport: any HCITransport, capture: PcapWriter, caseID: CaseID,
                     folder: String, log: CaseLog) throws -> DUTNode {
        let slot = LaunchSlot()
        let bridge = try HCIBridge(listeningOn: .tcp(host: "127.0.0.1", port: 0), transport: transport, capture: capture,
                                   observe: { direction, packet in slot.current?.observe(direction, packet) },
                                   onError: { log.note("dut bridge: \($0)") })
        return DUTNode(node: node, exec: exec, bridge: bridge, slot: slot, caseID: caseID, folder: folder, log: log)
    }

    /// Starts the program as `role`; the previous launch, if still running, is ended first.
    /// `payload` is written to `payload.bin` and named in `BLUEPROOF_PAYLOAD`.
    public func launch(_ role: DUTRole, payload: [UInt8]? = nil, extra: [String: String] = [:]) async throws -> DUTLaunch {
        if let previous = launches.withLock({ $0.last }) { await previous.stop(grace: exec.grace) }
        let index = launches.withLock { $0.count } + 1
        let launchFolder = "\(folder)/dut\(index)-\(role.rawValue)"
        try FileManager.default.createDirectory(atPath: launchFolder, withIntermediateDirectories: true)
        var environment = extra
        environment[DUTEnvironment.hci] = bridge.address.description
        environment[DUTEnvironment.caseID] = caseID.rawValue
        if let payload {
            let path = "\(launchFolder)/payload.bin"
            try Data(payload).write(to: URL(fileURLWithPath: path))
            environment[DUTEnvironment.payload] = path
        }
        let launch = try DUTLaunch(index: index, role: role, exec: exec, environment: environment, folder: launchFolder)
        launches.withLock { $0.append(launch) }
        slot.current = launch
        log.note("dut: launch \(index) as \(role.rawValue) (pid \(launch.process.pid)) on \(bridge.address): \(exec.command)")
        return launch
    }

    /// Ends every launch still running and copies each one's output into the case log.
    func close() async {
        for launch in launches.withLock({ $0 }) {
            let end = await launch.stop(grace: exec.grace)
            if let hello = launch.hello { log.note("dut: launch \(launch.index) says: \(hello)") }
            log.note("dut: launch \(launch.index) (\(launch.role.rawValue)) \(end); output in \(launch.folder)/output.log")
            for line in launch.output.split(separator: "\n").suffix(Self.outputLines) {
                log.note("dut \(launch.index): \(line)")
            }
        }
        if bridge.discardedOnEndedHandles > 0 {
            log.note("dut: \(bridge.discardedOnEndedHandles) data packet(s) it sent on connections already ended were dropped (they crossed the Disconnection Complete)")
        }
        bridge.close()
    }

    static let outputLines = 200

    /// A launch did not come up (it never advertised, or ended first): the case cannot judge it.
    func noteStartFailure(_ detail: String) {
        startFailures.withLock { $0.append(detail) }
        log.note("dut: \(detail)")
    }

    /// How the implementation names itself: the first hello of any launch.
    public var hello: String? { launches.withLock { $0 }.lazy.compactMap(\.hello).first }

    /// What the runner makes of the case whatever it concluded: a launch that crashed makes it
    /// an `error` naming the exit status; one that does not play its role makes it
    /// `not-applicable`; one that never came up fails precondition `start` (docs/runner.md,
    /// "Verdict policy"). Read after ``close()``.
    func verdictOverride(optional: Set<Precondition>) -> CaseOutcome? {
        let all = launches.withLock { $0 }
        if let crashed = all.first(where: { if case .crashed = $0.end { true } else { false } }) {
            return .error("the implementation under test \(crashed.end) mid-case (launch \(crashed.index), "
                          + "\(crashed.role.rawValue)); its output: \(crashed.folder)/output.log")
        }
        if let refused = all.first(where: { $0.end == .unsupportedRole }) {
            return .notApplicable("the implementation does not play the \(refused.role.rawValue) role "
                                  + "(it exited with status \(DUTEnvironment.unsupportedRoleStatus))")
        }
        if let failure = startFailures.withLock({ $0.first }) {
            return StageFailure(.start, failure).outcome(optional: optional)
        }
        return nil
    }
}

/// The launch a bridge shows its packets to, set as each launch starts.
private final class LaunchSlot: Sendable {
    private let value = Mutex<DUTLaunch?>(nil)
    var current: DUTLaunch? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
