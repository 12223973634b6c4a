import BlueproofAsync
import BlueproofControl
import BlueproofTransmitter
import BlueproofTransport
import Foundation

/// The implementation under test started by the runner (`--dut-exec`) as node 0 of every BFT
/// case: launched as `transmitter` on node 0's controller (behind the radio proxy and the
/// capture), driven through the control protocol it serves on `BLUEPROOF_CONTROL`; the
/// runner's reference transmitters are the testers from node 1 on (docs/dut.md).
public actor DUTExecTransmitterProvider: TransmitterProvider {
    public nonisolated let exec: DUTExec
    private let testers: ReferenceTransmitterProvider
    private var client: ControlClient?
    private var sockets = 0

    public init(exec: DUTExec, sessionRoot: URL) {
        self.exec = exec
        testers = ReferenceTransmitterProvider(link: .ble, sessionRoot: sessionRoot)
    }

    public nonisolated var name: String { exec.description }
    public nonisolated var isDeviceUnderTest: Bool { true }

    public func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] {
        guard let dut = context.dut, dut.node == 0 else {
            throw TransmitterUnavailable("the case has no node for the implementation under test")
        }
        sockets += 1
        let path = "\(NSTemporaryDirectory())/bp-control-\(getpid())-\(sockets).sock"
        let launch = try await dut.launch(.transmitter, extra: [DUTEnvironment.control: "unix:\(path)"])
        let subject = try await connect(to: .unix(path: path), launch: launch, clock: context.clock)
        client = subject
        // Fresh for every case: stopped, without a session.
        await subject.stop()
        do { try await subject.destroySession() } catch { context.log.note("dut: destroySession before the case: \(error)") }
        let others = try await testers.make(nodes: 1..<count, for: context)
        return [subject] + others
    }

    public func release(for context: CaseContext) async {
        await client?.stop()
        await client?.close()
        client = nil
        await testers.release(for: context)
    }

    public func harnessFailure() async -> String? {
        guard let failure = await client?.failure else { return nil }
        return "the control channel to the implementation under test failed: \(failure.detail ?? failure.summary)"
    }

    /// Connects once the launch listens, retrying every 100 ms (a program gives no other sign
    /// that its socket is ready) until it answers, ends, or `exec.startTimeout` passes.
    private func connect(to address: TransportSpec, launch: DUTLaunch, clock: any Clock<Duration>) async throws -> ControlClient {
        do {
            return try await withTimeout(exec.startTimeout, clock: clock, what: "the control protocol on \(address)") {
                while true {
                    switch launch.end {
                    case .running: break
                    case .unsupportedRole:
                        throw TransmitterUnavailable("the implementation does not play the transmitter role (status 77)")
                    default:
                        throw DeviceUnreachable(reason: "the implementation \(launch.end) before serving the control protocol on \(address)")
                    }
                    if let client = try? await ControlClient.connect(to: address) { return client }
                    try await clock.sleep(for: .milliseconds(100))
                }
            }
        } catch let timeout as TimeoutError {
            throw DeviceUnreachable(reason: "the implementation did not serve the control protocol: \(timeout)")
        }
    }
}
