import BlueproofAsync
import BlueproofCapture
import BlueproofTransport
import Foundation

/// BlueZ's `btvirt -s`, started by the harness. Every connection to its LE server socket is a
/// new emulated LE controller, at most 16 per process (DESIGN.md, measured facts).
///
/// Its socket paths are fixed (`/tmp/bt-server-*`); the preload library moves them into this
/// run's own folder so concurrent runs never meet. When the kernel lacks AF_ALG, the preload
/// library also fakes the crypto socket btvirt insists on, and the facts say so.
public final class BTVirtBackend: ControllerBackend {
    public let name = "btvirt"
    public let controllerLimit: Int? = 16
    public let facts: [BackendFact]
    public let socketPath: String
    let process: ChildProcess

    init(process: ChildProcess, socketPath: String, facts: [BackendFact]) {
        self.process = process
        self.socketPath = socketPath
        self.facts = facts
    }

    static func start(workDirectory: String) async throws -> BTVirtBackend {
        let executable = try ComponentLocator.btvirt()
        let preload = try ComponentLocator.preloadLibrary()
        let socketDirectory = "\(workDirectory)/btvirt"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        let afALGMissing = AFALGSupport.missingReason()
        var environment = [
            "LD_PRELOAD": preload,
            "BLUEPROOF_SOCKET_DIR": socketDirectory,
            "BLUEPROOF_READY_FD": "3",
        ]
        if afALGMissing != nil { environment["BLUEPROOF_FAKE_AF_ALG"] = "1" }

        let ready = try ReadinessPipe()
        let process = try ChildProcess(
            executable: executable, arguments: ["-s"], environment: environment,
            logPath: "\(workDirectory)/btvirt.log", passDescriptor: ready.writeEnd, ignoreSIGPIPE: true)
        ready.childStarted()

        let socketPath = "\(socketDirectory)/bt-server-le"
        let announced = try? await withTimeout(.seconds(10), what: "btvirt's LE socket") {
            await ready.first { $0 == "unix \(socketPath)" }
        }
        guard announced != nil else {
            if let exit = await process.exit(within: .seconds(1)) {
                throw BackendError.exitedBeforeReady(program: "btvirt", exit: exit.description, log: process.logTail())
            }
            await process.terminate()
            throw BackendError.notReady(program: "btvirt", waited: "10 s", log: process.logTail())
        }

        let workaround = afALGMissing.map { "used (kernel: \($0))" } ?? "not needed (kernel has AF_ALG)"
        return BTVirtBackend(process: process, socketPath: socketPath, facts: [
            BackendFact("backend", "btvirt (\(executable)), pid \(process.pid)"),
            BackendFact("socket", socketPath),
            BackendFact("log", process.logPath),
            BackendFact("AF_ALG workaround", workaround),
        ])
    }

    public func openController(capture: (any CaptureSink)?) async throws -> any HCITransport {
        if let exit = process.exitStatus {
            throw BackendError.openFailed(endpoint: "unix:\(socketPath)", reason: "btvirt \(exit)")
        }
        return try openTransport(.unix(path: socketPath), capture: capture)
    }

    public func shutdown() async { await process.terminate() }

    public func waitForDeath() async -> String? {
        await process.waitForExit().map { "btvirt \($0)" }
    }
}
