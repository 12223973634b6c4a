import BlueproofControl
import BlueproofTransmitter
import BlueproofTransport
import Foundation

/// An implementation under test behind the control protocol (docs/control-protocol.md) as
/// node 0 of every BFT case, with the runner's reference transmitters as the testers on the
/// case's controllers from node 1 on. The implementation's own controller must share the air
/// with the runner's (the same btvirt or Rootcanal, docs/runner.md "External implementations").
public actor DUTTransmitterProvider: TransmitterProvider {
    public nonisolated let address: TransportSpec
    private let testers: ReferenceTransmitterProvider
    private var client: ControlClient?

    public init(address: TransportSpec, sessionRoot: URL) {
        self.address = address
        self.testers = ReferenceTransmitterProvider(link: .ble, sessionRoot: sessionRoot)
    }

    public nonisolated var name: String { address.description }
    public nonisolated var isDeviceUnderTest: Bool { true }

    public func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] {
        let subject = try await connectedClient()
        // Fresh for every case: stopped, without a session.
        await subject.stop()
        do { try await subject.destroySession() } catch { context.log.note("dut: destroySession before the case: \(error)") }
        let others = try await testers.make(nodes: 1..<count, for: context)
        return [subject] + others
    }

    public func release(for context: CaseContext) async {
        await client?.stop()
        await testers.release(for: context)
    }

    /// The control channel broke during the case: the runner calls the case an error rather
    /// than trusting what the client returned.
    public func harnessFailure() async -> String? {
        guard let failure = await client?.failure else { return nil }
        return "the control channel to \(address) failed: \(failure.detail ?? failure.summary)"
    }

    private func connectedClient() async throws -> ControlClient {
        if let client, await client.failure == nil { return client }
        do {
            let fresh = try await ControlClient.connect(to: address)
            client = fresh
            return fresh
        } catch {
            throw DeviceUnreachable(reason: "the implementation at \(address) does not answer: \(error)")
        }
    }
}

/// The implementation under test could not be reached: the case is an `error` (docs/runner.md,
/// "Verdict policy"), never not-applicable, so a device that never answers fails the run.
public struct DeviceUnreachable: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
