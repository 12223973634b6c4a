import BlueproofAsync
import BlueproofCapture
import BlueproofTransport

/// Controllers served by a process the harness started (btvirt, Rootcanal): every connection
/// to ``endpoint`` is a new controller.
public final class ProcessBackend: ControllerBackend {
    public let name: String
    public let controllerLimit: Int?
    public let linkLimit: (links: Int, reason: String)?
    public let facts: [BackendFact]
    /// Where controllers are opened: btvirt's LE socket, Rootcanal's HCI port.
    public let endpoint: TransportSpec
    public var sharedEndpoint: TransportSpec? { endpoint }
    let process: ChildProcess

    init(name: String, controllerLimit: Int?, linkLimit: (links: Int, reason: String)? = nil, endpoint: TransportSpec,
         process: ChildProcess, facts: [BackendFact]) {
        self.name = name
        self.controllerLimit = controllerLimit
        self.linkLimit = linkLimit
        self.endpoint = endpoint
        self.process = process
        self.facts = facts
    }

    public func openController(capture: (any CaptureSink)?) async throws -> any HCITransport {
        if let exit = process.exitStatus {
            throw BackendError.openFailed(endpoint: endpoint.description, reason: "\(name) \(exit)")
        }
        return try openTransport(endpoint, capture: capture)
    }

    public func shutdown() async { await process.terminate() }

    public func waitForDeath() async -> String? {
        await process.waitForExit().map { "\(name) \($0)" }
    }
}

extension ChildProcess {
    /// Starts a controller program with the preload library and returns once it announces
    /// `announcement` (a socket it listens on, see bp_preload.h).
    static func launchController(
        _ name: String, executable: String, arguments: [String], environment: [String: String],
        logPath: String, announcement: String, limit: Duration = .seconds(10)
    ) async throws -> ChildProcess {
        var environment = environment
        environment["LD_PRELOAD"] = try ComponentLocator.preloadLibrary()
        environment["BLUEPROOF_READY_FD"] = "3"
        let ready = try ReadinessPipe()
        let process = try ChildProcess(executable: executable, arguments: arguments, environment: environment,
                                       logPath: logPath, passDescriptor: ready.writeEnd, ignoreSIGPIPE: true)
        ready.childStarted()
        let announced = try? await withTimeout(limit, what: "\(name) to listen") {
            await ready.first { $0 == announcement }
        }
        guard announced != nil else {
            if let exit = await process.exit(within: .seconds(1)) {
                throw BackendError.exitedBeforeReady(program: name, exit: exit.description, log: process.logTail())
            }
            await process.terminate()
            throw BackendError.notReady(program: name, waited: "\(limit)", log: process.logTail())
        }
        return process
    }
}
