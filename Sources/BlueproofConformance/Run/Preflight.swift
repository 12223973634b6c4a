import BlueproofAsync
import BlueproofBackend
import BlueproofControl
import BlueproofHost
import BlueproofTransmitterLinks
import BlueproofTransport
import Foundation

/// What the preflight learned about the controller before any case ran: whether one starts
/// at all, how many the backend gives, and the features cases may need.
public struct Preflight: Hashable, Sendable {
    public var backend: String
    public var controllerLimit: Int?
    /// Links one controller carries reliably, and why (``ControllerBackend/linkLimit``).
    public var linkLimit: Int? = nil
    public var linkLimitReason: String? = nil
    public var features: Set<ControllerFeature>
    public var facts: [BackendFact]

    /// Starts the backend, opens one controller and starts an LE host on it. Throws
    /// ``RunEnvironmentError`` when that fails (`blueproof run` exits 3).
    public static func run(_ spec: BackendSpec, workDirectory: String) async throws(RunEnvironmentError) -> Preflight {
        let backend: any ControllerBackend
        do {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            backend = try await startBackend(spec, workDirectory: workDirectory)
        } catch {
            throw RunEnvironmentError(reason: "\(spec) did not start: \(error)")
        }
        do {
            let host = LEHost(controller: HCIController(transport: try await backend.openController(capture: nil)))
            try await host.start()
            let commandSet = await host.commandSet
            await host.close()
            await backend.shutdown()
            return Preflight(backend: backend.name, controllerLimit: backend.controllerLimit,
                             linkLimit: backend.linkLimit?.links, linkLimitReason: backend.linkLimit?.reason,
                             features: commandSet == .extended ? [.extendedAdvertising] : [], facts: backend.facts)
        } catch {
            await backend.shutdown()
            throw RunEnvironmentError(reason: "no controller of \(spec) could start: \(error)")
        }
    }

    /// Why `needs` cannot be met here, or nil.
    public func missing(_ needs: CaseNeeds) -> String? {
        if let limit = controllerLimit, needs.controllers > limit {
            return "needs \(needs.controllers) controllers; \(backend) gives \(limit)"
        }
        if let limit = linkLimit, needs.linksPerNode > limit {
            return "needs \(needs.linksPerNode) links on one controller; \(linkLimitReason ?? "\(backend) carries \(limit)")"
        }
        let lacking = needs.features.subtracting(features)
        if !lacking.isEmpty {
            return "the controller lacks \(lacking.map(\.rawValue).sorted().joined(separator: ", "))"
        }
        return nil
    }
}

/// No controller could start: the run cannot judge anything (exit 3).
public struct RunEnvironmentError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension Preflight {
    /// `run --dut ADDRESS`: the implementation under test runs on a controller of its own, and
    /// the cases' tester reaches it only if that controller shares the air with `spec`'s. Checks
    /// it before any case (each would otherwise wait out its timeout, "no connection"): a
    /// backend the runner starts per case (btvirt, rootcanal) can never hold the implementation;
    /// on a shared backend, the implementation is started through the control protocol
    /// (docs/control-protocol.md) and one controller of `spec` scans for its advertisement
    /// (the transmitter's BLE service, docs/transmitter-links.md) for at most `limit`, then
    /// stopped, and its session destroyed again if it had none.
    public static func checkSharedAir(dut address: TransportSpec, controller spec: BackendSpec, workDirectory: String,
                                      within limit: Duration = .seconds(10)) async throws(RunEnvironmentError) {
        let howTo = "start the implementation's controller on a backend you share and give that backend here "
            + "(e.g. blueproof dut --controller unix:PATH --listen \(address), then blueproof run --dut \(address) --controller unix:PATH)"
        if case .transport = spec {} else {
            throw RunEnvironmentError(reason: "--dut \(address): --controller \(spec) starts a new \(spec) for every case, "
                + "which the implementation under test is not on, so no case could reach it; \(howTo)")
        }
        let client: ControlClient
        do {
            client = try await ControlClient.connect(to: address, timeout: .seconds(5))
        } catch {
            throw RunEnvironmentError(reason: "--dut \(address): cannot reach the implementation under test: \(error)")
        }
        let backend: any ControllerBackend
        let host: LEHost
        do {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            backend = try await startBackend(spec, workDirectory: workDirectory)
            host = LEHost(controller: HCIController(transport: try await backend.openController(capture: nil)))
            try await host.start()
        } catch {
            await client.close()
            throw RunEnvironmentError(reason: "no controller of \(spec) could start: \(error)")
        }
        var heard = false
        // Starting makes a session; the session cases judge the first start, so one made here is destroyed again.
        let hadSession = await client.hasSession()
        do {
            let devices = try await host.discover(services: [BLELinkProfile.transmitterService])
            try await client.start(mode: .automatic)
            heard = (try? await withTimeout(limit, what: "the implementation under test's advertisement") {
                for await _ in devices { return true }
                return false
            }) ?? false
        } catch {
            await client.close()
            await host.close()
            await backend.shutdown()
            throw RunEnvironmentError(reason: "--dut \(address): the implementation under test did not start: \(error)")
        }
        await client.stop()
        if !hadSession { try? await client.destroySession() }
        await client.close()
        await host.close()
        await backend.shutdown()
        guard heard else {
            throw RunEnvironmentError(reason: "--dut \(address): the implementation under test started, but no controller of "
                + "\(spec) heard it advertise within \(limit): they do not share the air; \(howTo)")
        }
    }
}
