import BlueproofTransmitter
import Foundation
import Testing

@Suite("Simulated mesh", .timeLimit(.minutes(5)))
struct SimulatedMeshTests {
    /// Starts `count` nodes, then connects them as `topology` says and waits until quiet.
    static func mesh(_ harness: EngineHarness, count: Int, topology: SimulatedTopology, hopLimit: Int, defects: TransmitterDefects = []) async throws -> [SimNode] {
        var nodes: [SimNode] = []
        for _ in 0..<count { nodes.append(try await harness.node(defects: defects, hopLimit: hopLimit)) }
        harness.network.addEdges(topology.edges(count: count).map { (nodes[$0.0].user, nodes[$0.1].user) })
        await harness.network.quiescent()
        return nodes
    }

    /// Sends one broadcast from `nodes[0]` and returns how often each node received it.
    static func broadcast(_ harness: EngineHarness, _ nodes: [SimNode]) async throws -> [Int] {
        let id = try await nodes[0].transmitter.send(dictionary: EngineHarness.message("flood"), data: nil, to: nil, options: [.broadcastReceiver])
        try await nodes[0].recorder.first { $0 == .addedToMesh(id) }
        await harness.network.quiescent()
        var counts: [Int] = []
        for node in nodes { counts.append(await EngineHarness.delivered(node)) }
        return counts
    }

    @Test("1,000-node grid: one broadcast reaches every node exactly once")
    func thousandNodes() async throws {
        let harness = EngineHarness()
        let edges = SimulatedTopology.grid.edges(count: 1000)
        let depth = SimulatedTopology.eccentricity(count: 1000, edges: edges)
        let nodes = try await Self.mesh(harness, count: 1000, topology: .grid, hopLimit: depth)
        let counts = try await Self.broadcast(harness, nodes)
        #expect(counts[0] == 0)
        #expect(counts.dropFirst().allSatisfy { $0 == 1 }, "nodes missed or duplicated: \(counts.enumerated().filter { $0.offset > 0 && $0.element != 1 }.count)")
        var forwarded = 0
        for node in nodes { forwarded += await node.transmitter.currentStatistics().forwarded }
        // Each node sends the packet once to each neighbour except the one it came from.
        let degreeSum = 2 * edges.count
        #expect(forwarded <= degreeSum - 999)
    }

    @Test("random connected graph of 300 nodes: every node exactly once")
    func randomGraph() async throws {
        let harness = EngineHarness()
        let edges = SimulatedTopology.random.edges(count: 300)
        let nodes = try await Self.mesh(harness, count: 300, topology: .random, hopLimit: SimulatedTopology.eccentricity(count: 300, edges: edges))
        let counts = try await Self.broadcast(harness, nodes)
        #expect(counts.dropFirst().allSatisfy { $0 == 1 })
    }

    @Test("hop limit honoured: on a chain a broadcast stops after the limit")
    func hopLimit() async throws {
        let harness = EngineHarness()
        let nodes = try await Self.mesh(harness, count: 7, topology: .chain, hopLimit: 3)
        let counts = try await Self.broadcast(harness, nodes)
        #expect(counts == [0, 1, 1, 1, 0, 0, 0])
    }

    @Test("a node fed the same frame 1,000 times delivers once and forwards once per neighbour")
    func duplicateFlood() async throws {
        let harness = EngineHarness()
        let hub = try await harness.node()
        var leaves: [SimNode] = []
        for _ in 0..<3 {
            let leaf = try await harness.node()
            try await harness.link(hub, leaf)
            leaves.append(leaf)
        }
        let flooder = try await RawNode.join(harness, nextTo: hub.user)
        try await hub.recorder.first { $0 == .connected(flooder.identity.userID) }
        let frame = try flooder.frame(claiming: flooder.identity.userID, to: nil, text: "again", expiry: harness.clock.now().addingTimeInterval(60))
        for _ in 0..<1000 { try await flooder.send(frame, to: hub.user) }
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(hub) == 1)
        let stats = await hub.transmitter.currentStatistics()
        #expect(stats.forwarded == 3 && stats.duplicates == 999)
        for leaf in leaves { #expect(await EngineHarness.delivered(leaf) == 1) }
    }

    @Test("moving a node in and out of range: connections follow the edges")
    func mobility() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        try await harness.link(a, b)
        harness.network.removeEdge(a.user, b.user)
        try await a.recorder.first { $0 == .disconnected(b.user) }
        #expect(await a.transmitter.connectedUsers().isEmpty)
        await #expect(throws: TransmitterError.directReceiverNotInRange) {
            try await a.transmitter.send(dictionary: EngineHarness.message("x"), data: nil, to: b.user, options: [.directTransmission])
        }
        let mark = a.recorder.events.count
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first(from: mark) { event in event == .connected(b.user) }
        await harness.network.quiescent()
        #expect(await a.transmitter.connectedUsers() == [b.user])
    }
}
