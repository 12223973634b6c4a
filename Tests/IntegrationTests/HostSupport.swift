import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import Foundation
import Testing

/// LE hosts on `count` controllers of one backend, each recording to `nodeN.pcap` in `folder`.
struct HostNodes {
    let backend: any ControllerBackend
    let hosts: [LEHost]
    let writers: [PcapWriter]

    var captures: [String] { writers.map(\.path) }

    /// Every violation the hosts and their controllers recorded, per node.
    func violations() async -> [[String]] {
        var all: [[String]] = []
        for host in hosts {
            let controllerViolations = await host.controller.violations
            all.append(await host.violations + controllerViolations)
        }
        return all
    }
}

/// Starts `spec`, opens `count` started LE hosts (on `commandSet` when given and supported),
/// runs `body`, then closes everything.
func withHosts<T: Sendable>(
    _ spec: BackendSpec, count: Int = 2, commandSet: LECommandSet? = nil, in folder: WorkFolder,
    _ body: (HostNodes) async throws -> T
) async throws -> T {
    try await withBackend(spec, in: folder.file(spec.description)) { backend in
        var hosts: [LEHost] = []
        var writers: [PcapWriter] = []
        defer { writers.forEach { $0.close() } }
        do {
            for index in 0..<count {
                let writer = try PcapWriter(path: folder.file("node\(index).pcap"))
                writers.append(writer)
                let host = LEHost(controller: HCIController(transport: try await backend.openController(capture: writer)),
                                  commandSet: commandSet)
                hosts.append(host)
                try await host.start()
            }
            let result = try await body(HostNodes(backend: backend, hosts: hosts, writers: writers))
            for host in hosts { await host.close() }
            return result
        } catch {
            for host in hosts { await host.close() }
            throw error
        }
    }
}
