import BlueproofAsync
import BlueproofControl
import BlueproofTransmitter
import BlueproofTransmitterLinks
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
    /// Per case: the Wi-Fi peer-to-peer the implementation shares with the testers (issue 14).
    private var wifiGroups: [ObjectIdentifier: WiFiGroup] = [:]

    public init(_ subject: Subject, sessionRoot: URL) {
        self.subject = subject
        testers = ReferenceTransmitterProvider(link: .ble, sessionRoot: sessionRoot)
    }

    public init(address: TransportSpec, sessionRoot: URL) {
        self.init(.address(address), sessionRoot: sessionRoot)
    }

    public nonisolated var name: String { subject.name }

    public nonisolated var isDeviceUnderTest: Bool { true }

    public func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] {
        let client = try await freshSubject(for: context)
        let others = try await testers.make(nodes: 1..<count, for: context)
        return [client] + others
    }

    /// The implementation, fresh for every case: stopped, without a session.
    private func freshSubject(for context: CaseContext) async throws -> ControlClient {
        let client = try await subjectClient(for: context)
        await client.stop()
        do { try await client.destroySession() } catch { context.log.note("dut: destroySession before the case: \(error)") }
        return client
    }

    // issue 14: BFT/SIZE with an Android peer
    /// The implementation as it ships (it announces its own platform), its Wi-Fi peer-to-peer
    /// link sharing the testers' (`wifiPeerToPeer`, control protocol 4); the testers with both
    /// links, announcing the platforms given.
    public func transmitters(_ count: Int, platforms: [Int: DevicePlatform], for context: CaseContext) async throws -> [any TransmitterControl] {
        let client = try await freshSubject(for: context)
        let version = await client.protocolVersion
        guard version >= 4 else {
            throw TransmitterUnavailable("the implementation speaks control protocol \(version): giving it Wi-Fi peer-to-peer peers (wifiPeerToPeer) needs 4")
        }
        do { _ = try await client.wifiPeerToPeer(adding: []) } catch {
            throw TransmitterUnavailable("the implementation has no Wi-Fi peer-to-peer link to share with the testers: wifiPeerToPeer refused: \(error)")
        }
        let log = context.log
        let group = WiFiGroup { addresses in
            do {
                return try await client.wifiPeerToPeer(adding: addresses.map(\.description)).flatMap { try? TCPAddress($0) }
            } catch {
                log.note("dut: wifiPeerToPeer: \(error)")
                return nil
            }
        }
        wifiGroups[ObjectIdentifier(context)] = group
        let others = try await testers.make(nodes: 1..<count, platforms: platforms, wifiGroup: group, for: context)
        return [client] + others
    }

    /// Asks the implementation where its Wi-Fi link listens until it says, then as the reference.
    public func carriage(atTester index: Int, of peer: UserID, within timeout: Duration,
                         where condition: @escaping @Sendable (DualLink.Carriage) -> Bool, for context: CaseContext) async throws -> DualLink.Carriage? {
        await wifiGroups[ObjectIdentifier(context)]?.askOutside()
        return try await testers.carriage(atTester: index, of: peer, within: timeout, where: condition, for: context)
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
        wifiGroups[ObjectIdentifier(context)] = nil  // issue 14
    }

    public func implementationName() async -> String? { await client?.implementation }

    // issue 17: Spark data connections
    public nonisolated var sparkProvider: (any SparkProvider)? { DUTSparkProvider(subject, starts: sparkStarts) }
    /// Whether the implementation has started a Spark subject in this run (`DUTSparkProvider`).
    private nonisolated let sparkStarts = DUTStarts()
    // issue 18: Bluenet
    /// Whether the implementation has started a Bluenet library in this run (`bluenet(on:for:)`).
    nonisolated let bluenetStarts = DUTStarts()

    /// The control channel broke during the case: the runner calls the case an error rather
    /// than trusting what the client returned.
    public func harnessFailure() async -> String? {
        guard let failure = await client?.failure else { return nil }
        return "the control channel to \(name) failed: \(failure.detail ?? failure.summary)"
    }

    private func subjectClient(for context: CaseContext) async throws -> ControlClient {
        // With --dut the implementation stays up: its channel is kept while it works.
        if case .address = subject, let client, await client.failure == nil { return client }
        let fresh = try await subject.control(as: .transmitter, for: context)
        client = fresh
        return fresh
    }
}

/// The implementation under test could not be reached: the case is an `error` (docs/runner.md,
/// "Verdict policy"), never not-applicable, so a device that never answers fails the run.
public struct DeviceUnreachable: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
