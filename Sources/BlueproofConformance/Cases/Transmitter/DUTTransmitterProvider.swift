import BlueproofAsync
import BlueproofControl
import BlueproofTransmitter
import BlueproofTransport
import Foundation

/// An implementation under test behind the control protocol (docs/control-protocol.md) as
/// node 0 of every BFT case, with the runner's reference transmitters as the testers on the
/// case's controllers from node 1 on. Two ways to reach it:
/// - ``Subject/address``, `--dut`: one you started, whose own controller shares the air with
///   the runner's (docs/runner.md, "External implementations");
/// - ``Subject/exec``, `--dut-exec`: started by the runner for each case as `transmitter` on
///   node 0's controller (behind the radio proxy and the capture), serving the protocol on
///   `BLUEPROOF_CONTROL` (docs/dut.md).
public actor DUTTransmitterProvider: TransmitterProvider {
    public enum Subject: Sendable {
        case address(TransportSpec)
        case exec(DUTExec)
    }

    public nonisolated let subject: Subject
    private let testers: ReferenceTransmitterProvider
    private var client: ControlClient?
    private var sockets = 0

    public init(_ subject: Subject, sessionRoot: URL) {
        self.subject = subject
        testers = ReferenceTransmitterProvider(link: .ble, sessionRoot: sessionRoot)
    }

    public init(address: TransportSpec, sessionRoot: URL) {
        self.init(.address(address), sessionRoot: sessionRoot)
    }

    public nonisolated var name: String {
        switch subject {
        case let .address(address): address.description
        case let .exec(exec): exec.description
        }
    }

    public nonisolated var isDeviceUnderTest: Bool { true }

    public func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] {
        let client = try await subjectClient(for: context)
        // Fresh for every case: stopped, without a session.
        await client.stop()
        do { try await client.destroySession() } catch { context.log.note("dut: destroySession before the case: \(error)") }
        let others = try await testers.make(nodes: 1..<count, for: context)
        return [client] + others
    }

    // issue 15: passive observers and the hello
    /// The testers are the runner's reference transmitters: any of them can be the impostor.
    public func impersonate(_ user: UserID, onTester index: Int, for context: CaseContext) async throws {
        try await testers.impersonate(user, onTester: index, for: context)
    }

    public func release(for context: CaseContext) async {
        await client?.stop()
        if case .exec = subject {
            // The program ends with the case; its channel goes with it.
            await client?.close()
            client = nil
        }
        await testers.release(for: context)
    }

    public func implementationName() async -> String? { await client?.implementation }

    /// The control channel broke during the case: the runner calls the case an error rather
    /// than trusting what the client returned.
    public func harnessFailure() async -> String? {
        guard let failure = await client?.failure else { return nil }
        return "the control channel to \(name) failed: \(failure.detail ?? failure.summary)"
    }

    private func subjectClient(for context: CaseContext) async throws -> ControlClient {
        switch subject {
        case let .address(address):
            if let client, await client.failure == nil { return client }
            do {
                let fresh = try await ControlClient.connect(to: address)
                client = fresh
                return fresh
            } catch {
                throw DeviceUnreachable(reason: "the implementation at \(address) does not answer: \(error)")
            }
        case let .exec(exec):
            guard let dut = context.dut, dut.node == 0 else {
                throw TransmitterUnavailable("the case has no node for the implementation under test")
            }
            sockets += 1
            // Short, in the temporary folder: a unix socket path holds at most 107 bytes.
            let path = "\(NSTemporaryDirectory())/bp-control-\(getpid())-\(sockets).sock"
            let launch = try await dut.launch(.transmitter, extra: [DUTEnvironment.control: "unix:\(path)"])
            let fresh = try await Self.connect(to: .unix(path: path), launch: launch, within: exec.startTimeout, clock: context.clock)
            client = fresh
            return fresh
        }
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

/// The implementation under test could not be reached: the case is an `error` (docs/runner.md,
/// "Verdict policy"), never not-applicable, so a device that never answers fails the run.
public struct DeviceUnreachable: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
