import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofWire
import Foundation
import BlueproofTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Integration {
    @Suite("Backend lifecycle")
    struct BackendLifecycleTests {
        @Test("two btvirt backends started at once serve controllers on their own sockets",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func concurrentBTVirt() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("concurrent")
            defer { folder.cleanUp() }

            async let first = outcome { try await startBackend(.btvirt, workDirectory: folder.file("a")) }
            async let second = outcome { try await startBackend(.btvirt, workDirectory: folder.file("b")) }
            let started = await [first, second]
            let backends = started.compactMap { try? $0.get() }
            do {
                try await checkConcurrent(started.map { try $0.get() }, folder: folder)
            } catch {
                for backend in backends { await backend.shutdown() }
                throw error
            }
            for backend in backends { await backend.shutdown() }
            // Shut down, neither left a process behind.
            for backend in backends {
                let pid = try #require(processID(of: backend))
                #expect(!ChildProcessRegistry.shared.live.contains(pid))
            }
        }

        private func checkConcurrent(_ backends: [any ControllerBackend], folder: WorkFolder) async throws {
            let a = backends[0], b = backends[1]
            let paths = [a, b].map { backend -> String? in
                guard case let .unix(path)? = (backend as? ProcessBackend)?.endpoint else { return nil }
                return path
            }
            #expect(paths[0] == folder.file("a/btvirt/bt-server-le"))
            #expect(paths[1] == folder.file("b/btvirt/bt-server-le"))
            #expect(paths[0] != paths[1])
            #expect(!paths.contains("/tmp/bt-server-le"))
            #expect([a, b].map { fact("socket", of: $0) } == paths)
            #expect(processID(of: a) != nil && processID(of: a) != processID(of: b))

            // Both serve a working controller, at the same time.
            var controllers: [HCIController] = []
            defer { for controller in controllers { controller.transport.close() } }
            for backend in [a, b] {
                let controller = HCIController(transport: try await backend.openController(capture: nil))
                await controller.start()
                controllers.append(controller)
                #expect(controller.endpoint == (backend as? ProcessBackend)?.endpoint.description)
            }
            var addresses: [String] = []
            for controller in controllers {
                try await controller.send(HCIReset())
                addresses.append(try await controller.send(HCIReadBDADDR()).bdAddr.description)
            }
            for controller in controllers { await controller.close() }
            #expect(addresses.count == 2)
        }

        @Test("a btvirt killed mid-run fails the next command with controllerGone, and the backend reports its death",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func controllerProcessDies() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("dies")
            defer { folder.cleanUp() }
            let writer = try PcapWriter(path: folder.file("node0.pcap"))
            defer { writer.close() }

            try await withBackend(.btvirt, in: folder.path) { backend in
                let pid = try #require(processID(of: backend), "facts: \(backend.facts)")
                #expect(ChildProcessRegistry.shared.live.contains(pid))
                // A command timeout far above the bound below: a hang cannot pass as a timeout.
                let controller = HCIController(transport: try await backend.openController(capture: writer),
                                               commandTimeout: .seconds(30))
                await controller.start()
                try await controller.send(HCIReset())
                #expect(controller.endReason == nil)

                #expect(kill(pid, SIGKILL) == 0)
                let outcome = await outcome { try await controller.send(HCIReadLocalVersionInformation()) }
                let ended = try await withTimeout(.seconds(5), what: "the link to end") { await controller.waitForEnd() }
                switch outcome {
                case let .failure(HCICommandError.controllerGone(reason)):
                    #expect(!reason.isEmpty)
                default:
                    Issue.record("a command to a killed controller gave \(outcome), not controllerGone")
                }
                #expect(ended != nil)
                let death = try await withTimeout(.seconds(5), what: "btvirt's death") { await backend.waitForDeath() }
                #expect(death == "btvirt was killed by signal \(SIGKILL)")
                #expect(!ChildProcessRegistry.shared.live.contains(pid))

                // Once dead, the backend refuses new controllers with a typed error.
                do {
                    _ = try await backend.openController(capture: nil)
                    Issue.record("a dead btvirt gave a controller")
                } catch let error as BackendError {
                    guard case .openFailed = error else {
                        Issue.record("expected openFailed, got \(error)")
                        return
                    }
                }
                await controller.close()
            }
            writer.close()
            // What was recorded before the death reads back whole.
            let file = try CaptureReader.read(path: writer.path)
            #expect(file.truncated == nil)
            #expect(file.records.count == writer.packetCount)
            #expect(file.records.first?.packet == H4Packet(type: .command, payload: [0x03, 0x0C, 0x00]))
        }
    }
}

/// The outcome of `body` as a value.
func outcome<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
