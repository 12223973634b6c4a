import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofRadio
import Foundation

/// One case's fresh nodes: a backend started for the case, one controller per node, each
/// recording to `<captures>/node<N>.pcap` (flushed per packet), behind the radio proxy when
/// the case asked for a scenario; no backend at all for a case that needs no controller.
/// ``close()`` ends all of it.
struct Topology: Sendable {
    let backend: (any ControllerBackend)?
    let hosts: [LEHost]
    let writers: [PcapWriter]
    let radio: RadioWorld?

    var captures: [String] { writers.map(\.path) }

    /// Opens the topology `needs` asks for; on failure closes what was opened and throws.
    static func open(_ needs: CaseNeeds, spec: BackendSpec, captureFolder: String, workDirectory: String,
                     clock: any Clock<Duration>) async throws -> Topology {
        try FileManager.default.createDirectory(atPath: captureFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        guard needs.controllers > 0 else { return Topology(backend: nil, hosts: [], writers: [], radio: nil) }
        let radio = try needs.radioScenario.map { RadioWorld(scenario: try RadioScenario.load(yaml: $0, file: "case scenario"), clock: clock) }
        let backend: any ControllerBackend
        do {
            backend = try await startBackend(spec, workDirectory: workDirectory)
        } catch {
            radio?.shutdown()
            throw error
        }
        var hosts: [LEHost] = []
        var writers: [PcapWriter] = []
        do {
            for node in 0..<needs.controllers {
                let writer = try PcapWriter(path: "\(captureFolder)/node\(node).pcap")
                writers.append(writer)
                let transport = try await backend.openController(capture: writer)
                let proxied = needs.unproxiedNodes.contains(node) ? transport : radio?.attach(node: node, to: transport) ?? transport
                let host = LEHost(controller: HCIController(transport: proxied))
                hosts.append(host)
                try await host.start()
            }
        } catch {
            await Topology(backend: backend, hosts: hosts, writers: writers, radio: radio).close()
            throw error
        }
        return Topology(backend: backend, hosts: hosts, writers: writers, radio: radio)
    }

    func close() async {
        for host in hosts { await host.close() }
        radio?.shutdown()
        for writer in writers { writer.close() }
        await backend?.shutdown()
    }
}
