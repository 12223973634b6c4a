import ArgumentParser
import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofRadio
import Foundation

/// The controllers one command works with: the backend it started (or reached), one
/// ``HCIController`` per node, each with its own capture when `--capture` is given.
struct ControllerSession {
    let backend: any ControllerBackend
    let controllers: [HCIController]
    let writers: [PcapWriter]

    /// Starts the backend named by `--controller` and opens `count` controllers on it, node N
    /// behind `radio`'s proxy when given (the capture then shows the controller's side). Exits
    /// 3 when the environment fails (no backend, no controller), 2 when `count` exceeds the
    /// backend's limit.
    static func open(_ options: ControllerOptions, count: Int, radio: RadioWorld? = nil) async throws -> ControllerSession {
        let spec = try options.backendSpec()
        let workDirectory = try options.makeWorkDirectory()
        // A backend named by address already runs: this command joins it.
        let joining = if case .transport = spec { true } else { false }
        Console.progress("\(joining ? "joining" : "starting") \(spec) (logs in \(workDirectory))")
        let backend: any ControllerBackend
        do {
            backend = try await startBackend(spec, workDirectory: workDirectory)
        } catch {
            Console.error("\(error)")
            throw ExitCode(3)
        }
        if let limit = backend.controllerLimit, count > limit {
            await backend.shutdown()
            Console.error("\(BackendError.controllerLimit(backend: backend.name, limit: limit, requested: count))")
            throw ExitCode(2)
        }
        var controllers: [HCIController] = []
        var writers: [PcapWriter] = []
        do {
            for index in 0..<count {
                let writer = try options.capturePath(index: index, count: count).map { try PcapWriter(path: $0) }
                if let writer { writers.append(writer) }
                let transport = try await backend.openController(capture: writer)
                controllers.append(HCIController(transport: radio?.attach(node: index, to: transport) ?? transport))
            }
        } catch {
            await ControllerSession(backend: backend, controllers: controllers, writers: writers).close()
            Console.error("\(error)")
            throw ExitCode(3)
        }
        return ControllerSession(backend: backend, controllers: controllers, writers: writers)
    }

    /// LE hosts on every controller, started (reset, buffers read). Exits 3 when one fails.
    func startHosts() async throws -> [LEHost] {
        var hosts: [LEHost] = []
        for controller in controllers {
            let host = LEHost(controller: controller)
            do {
                try await host.start()
            } catch {
                Console.error("\(controller.endpoint): \(error)")
                await close()
                throw ExitCode(3)
            }
            hosts.append(host)
        }
        return hosts
    }

    /// Where other programs can reach the same backend: a started btvirt or Rootcanal gives
    /// new controllers to anyone who connects, so a Bumble or a second blueproof can join.
    var joinHint: String? {
        backend.sharedEndpoint.map { "other devices can join this backend with --controller \($0)" }
    }

    func close() async {
        for controller in controllers { await controller.close() }
        for writer in writers { writer.close() }
        await backend.shutdown()
    }
}
