import BlueproofBackend
import BlueproofHost
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
