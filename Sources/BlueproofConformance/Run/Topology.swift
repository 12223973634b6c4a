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
    /// Our LE host on each node, by node; nil on the device under test's node.
    let hosts: [LEHost?]
    let writers: [PcapWriter]
    let radio: RadioWorld?
    /// The implementation under test on its node (`--dut-exec`).
    let dut: DUTNode?

    /// Each node's capture path, by node; a device on the air's node has none on disk.
    let captures: [String]

    /// Where an implementation under test goes in a case.
    struct DeviceSlot: Sendable {
        var node: Int
        var exec: DUTExec
        var caseID: CaseID
        var log: CaseLog
    }

    /// Opens the topology `needs` asks for, with `device`'s node served to the implementation
    /// under test instead of our host; on failure closes what was opened and throws.
    static func open(_ needs: CaseNeeds, spec: BackendSpec, captureFolder: String, workDirectory: String,
                     device: DeviceSlot? = nil, skipping: Int? = nil, clock: any Clock<Duration>) async throws -> Topology {
        try FileManager.default.createDirectory(atPath: captureFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let captures = (0..<needs.controllers).map { "\(captureFolder)/node\($0).pcap" }
        guard needs.controllers > 0 else { return Topology(backend: nil, hosts: [], writers: [], radio: nil, dut: nil, captures: []) }
        let radio = try needs.radioScenario.map { RadioWorld(scenario: try RadioScenario.load(yaml: $0, file: "case scenario"), clock: clock) }
        let backend: any ControllerBackend
        do {
            backend = try await startBackend(spec, workDirectory: workDirectory)
        } catch {
            radio?.shutdown()
            throw error
        }
        var hosts: [LEHost?] = []
        var writers: [PcapWriter] = []
        var dut: DUTNode?
        do {
            for node in 0..<needs.controllers {
                // A device on the air takes this node: no controller of ours, no capture.
                if node == skipping {
                    hosts.append(nil)
                    continue
                }
                let writer = try PcapWriter(path: captures[node])
                writers.append(writer)
                let isDevice = device?.node == node
                // The device's capture is taken at its bridge: what it sent and what it was told.
                let transport = try await backend.openController(capture: isDevice ? nil : writer)
                let proxied = needs.unproxiedNodes.contains(node) ? transport : radio?.attach(node: node, to: transport) ?? transport
                if let device, isDevice {
                    dut = try DUTNode.open(node: node, exec: device.exec, transport: proxied, capture: writer, caseID: device.caseID,
                                           folder: captureFolder, log: device.log)
                    hosts.append(nil)
                    continue
                }
                let host = LEHost(controller: HCIController(transport: proxied))
                hosts.append(host)
                try await host.start()
            }
        } catch {
            await Topology(backend: backend, hosts: hosts, writers: writers, radio: radio, dut: dut, captures: captures).close()
            throw error
        }
        return Topology(backend: backend, hosts: hosts, writers: writers, radio: radio, dut: dut, captures: captures)
    }

    func close() async {
        await dut?.close()
        for host in hosts { await host?.close() }
        radio?.shutdown()
        for writer in writers { writer.close() }
        await backend?.shutdown()
    }
}
