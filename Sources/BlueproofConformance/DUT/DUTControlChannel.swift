import BlueproofAsync
import BlueproofControl
import BlueproofTransport
import Foundation
import Synchronization

/// The control channel to an implementation under test that the runner starts itself
/// (`--dut-exec`): one launch on the case's device node, serving the protocol on a unix socket
/// it is given as `BLUEPROOF_CONTROL` (docs/dut.md).
enum DUTControlChannel {
    /// Socket paths handed out so far in this process: each launch gets its own.
    private static let sockets = Atomic<Int>(0)

    /// Starts the implementation as `role` on node 0 of the case and connects to it.
    static func launch(_ role: DUTRole, _ exec: DUTExec, for context: CaseContext) async throws -> ControlClient {
        guard let dut = context.dut, dut.node == 0 else {
            throw TransmitterUnavailable("the case has no node for the implementation under test")
        }
        let number = sockets.add(1, ordering: .relaxed).newValue
        // Short, in the temporary folder: a unix socket path holds at most 107 bytes. A random
        // part and the removal of anything there: a run with a recycled process id once met
        // a socket file an earlier run left, and its implementation could not bind.
        let path = "\(NSTemporaryDirectory())/bp-control-\(getpid())-\(number)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).sock"
        unlink(path)
        let launch = try await dut.launch(role, extra: [DUTEnvironment.control: "unix:\(path)"])
        let client = try await connect(to: .unix(path: path), launch: launch, within: exec.startTimeout, clock: context.clock)
        // Connected: the implementation's listening socket needs its name no more.
        unlink(path)
        return client
    }

    /// Connects once the launch listens, retrying every 100 ms (a program gives no other sign
    /// that its socket is ready) until it answers, ends, or `limit` passes.
    private static func connect(to address: TransportSpec, launch: DUTLaunch, within limit: Duration,
                                clock: any Clock<Duration>) async throws -> ControlClient {
        do {
            return try await withTimeout(limit, clock: clock, what: "the control protocol on \(address)") {
                while true {
                    switch launch.end {
                    case .running: break
                    case .unsupportedRole:
                        throw TransmitterUnavailable("the implementation does not play the \(launch.role.rawValue) role (status 77)")
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

extension DUTTransmitterProvider.Subject {
    /// The implementation as reports name it: its address or its command.
    public var name: String {
        switch self {
        case let .address(address): address.description
        case let .exec(exec): exec.description
        }
    }

    /// A fresh control channel to the implementation for one case: connected to the one at
    /// `--dut`, or the `--dut-exec` program started as `role`. One that does not answer is
    /// `DeviceUnreachable`.
    func control(as role: DUTRole, for context: CaseContext) async throws -> ControlClient {
        switch self {
        case let .address(address):
            do { return try await ControlClient.connect(to: address) } catch {
                throw DeviceUnreachable(reason: "the implementation at \(address) does not answer: \(error)")
            }
        case let .exec(exec):
            return try await DUTControlChannel.launch(role, exec, for: context)
        }
    }
}
