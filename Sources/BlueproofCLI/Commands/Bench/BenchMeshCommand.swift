import ArgumentParser
import BlueproofAsync
import BlueproofTransmitter
import Foundation
import Synchronization

struct BenchMeshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mesh",
        abstract: "Flood one broadcast through N reference transmitters on the simulated link.",
        discussion: """
        Starts N transmitters in this process on a SimulatedNetwork (grid: each node has its 4 \
        neighbours; random: a seeded random connected graph), waits until every connection is up, \
        then sends one broadcast from node 0 with a hop limit equal to the graph's depth. Prints \
        the time until the last node received it, the time per hop (last receipt divided by the \
        depth, and per ring of equal distance), how many frames the network carried, and the \
        process's peak resident memory (VmHWM). Simulated identities share one RSA key. Exits 1 \
        if a node missed the broadcast or got it twice.

        Examples:
          blueproof bench mesh --nodes 1000
          blueproof bench mesh --nodes 10000 --topology grid --json
        """
    )

    @Option(name: .long, help: "Number of nodes (2 or more).")
    var nodes: Int = 1000

    @Option(name: .long, help: "grid or random.")
    var topology: String = "grid"

    @Option(name: .long, help: "Seed of the random topology.")
    var seed: UInt64 = 1

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard nodes >= 2 else { throw ValidationError("--nodes must be at least 2") }
        guard SimulatedTopology(rawValue: topology).map({ $0 != .chain }) ?? false else {
            throw ValidationError("--topology must be grid or random")
        }
    }

    func run() async throws {
        let shape = SimulatedTopology(rawValue: topology)!
        let edges = shape.edges(count: nodes, seed: seed)
        let distances = SimulatedTopology.distances(count: nodes, edges: edges)
        let depth = distances.max() ?? 0
        guard depth <= Int(UInt8.max) else { throw ValidationError("graph depth \(depth) exceeds the 255-hop field") }
        let clock = ContinuousClock()
        let setupStart = clock.now

        let network = SimulatedNetwork()
        let identities = try SimulatedIdentities()
        let apiKey = "blueproof-bench"
        let licence = try LicenceIssuer.blueproofTest().issue(apiKey: apiKey, holder: "bench", expires: Date().addingTimeInterval(86400))
        let probe = MeshBenchProbe(nodes: nodes)
        var transmitters: [Transmitter] = []
        var users: [UserID] = []
        for index in 0..<nodes {
            let identity = try identities.make()
            let transmitter = Transmitter(configuration: TransmitterConfiguration(
                link: network.link(), session: InMemorySession(identity: identity), apiKey: apiKey, licence: licence,
                hopLimit: max(1, depth), duplicateCacheCapacity: 64))
            let events = await transmitter.events()
            Task {
                for await event in events {
                    guard case .received = event else { continue }
                    probe.received(by: index, at: clock.now)
                }
            }
            try await transmitter.start(mode: .automatic)
            transmitters.append(transmitter)
            users.append(identity.userID)
        }
        network.addEdges(edges.map { (users[$0.0], users[$0.1]) })
        await network.quiescent()
        let setup = clock.now - setupStart
        let framesBefore = network.framesSent

        let originEvents = await transmitters[0].events()
        let sent = clock.now
        probe.sent(at: sent)
        let id = try await transmitters[0].send(dictionary: ["bench": .string("flood")], data: nil, to: nil, options: [.broadcastReceiver])
        // Delivery starts after send returns: wait until the packet is in the mesh, then for quiet.
        for await event in originEvents where event == .addedToMesh(id) { break }
        await network.quiescent()
        let settled = clock.now - sent
        // Receipts are recorded by the event tasks, which may trail the network going quiet.
        var delivered = 0
        for transmitter in transmitters { delivered += await transmitter.currentStatistics().delivered }
        await probe.allReceived(delivered)
        let (times, total) = probe.snapshot()
        let reached = times.dropFirst().filter { $0 != nil }.count
        let last = times.compactMap { $0 }.max() ?? .zero
        var rings: [Double] = Array(repeating: 0, count: depth + 1)
        for (index, time) in times.enumerated() {
            if let time { rings[distances[index]] = max(rings[distances[index]], Self.seconds(time)) }
        }
        let result = MeshBenchResult(
            nodes: nodes, topology: topology, edges: edges.count, depth: depth, build: Self.buildKind,
            setupSeconds: Self.seconds(setup), floodSeconds: Self.seconds(last), settledSeconds: Self.seconds(settled),
            perHopMilliseconds: depth > 0 ? Self.seconds(last) * 1000 / Double(depth) : 0,
            ringMilliseconds: rings.map { $0 * 1000 }, reached: reached, deliveries: total,
            frames: network.framesSent - framesBefore, peakRSSKiB: Self.peakRSSKiB())
        if json { try Console.json(result) } else { Console.line(result.text) }
        for transmitter in transmitters { await transmitter.stop() }
        if reached != nodes - 1 || total != nodes - 1 { throw ExitCode(1) }
    }

    static func seconds(_ duration: Duration) -> Double {
        duration.seconds
    }

    /// VmHWM from /proc/self/status, in KiB (nil where /proc is absent).
    static func peakRSSKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    #if DEBUG
    static let buildKind = "debug"
    #else
    static let buildKind = "release"
    #endif
}

/// What `blueproof bench mesh` prints.
struct MeshBenchResult: Encodable {
    var nodes: Int
    var topology: String
    var edges: Int
    var depth: Int
    var build: String
    var setupSeconds: Double
    /// Send to the last node's first receipt.
    var floodSeconds: Double
    /// Send to the network being quiet (every copy handled).
    var settledSeconds: Double
    var perHopMilliseconds: Double
    /// Per distance from the sender: when the last node at that distance received it.
    var ringMilliseconds: [Double]
    var reached: Int
    var deliveries: Int
    var frames: Int
    var peakRSSKiB: Int?

    var text: String {
        """
        mesh flood: \(nodes) nodes, \(topology), \(edges) edges, depth \(depth) (\(build) build)
          setup (start + connect):   \(String(format: "%.2f", setupSeconds)) s
          flood to last node:        \(String(format: "%.3f", floodSeconds)) s
          settled (all copies):      \(String(format: "%.3f", settledSeconds)) s
          per hop:                   \(String(format: "%.2f", perHopMilliseconds)) ms
          reached:                   \(reached) of \(nodes - 1), deliveries \(deliveries)
          frames carried:            \(frames)
          peak RSS (VmHWM):          \(peakRSSKiB.map { "\($0 / 1024) MiB" } ?? "n/a")
        """
    }
}

/// Receipt times of the flood, written by the nodes' event tasks.
final class MeshBenchProbe: Sendable {
    private struct State {
        var sent: ContinuousClock.Instant?
        var first: [Duration?]
        var total = 0
        var waiter: (Int, CheckedContinuation<Void, Never>)?
    }

    private let state: Mutex<State>

    init(nodes: Int) { state = Mutex(State(first: Array(repeating: nil, count: nodes))) }

    func sent(at instant: ContinuousClock.Instant) { state.withLock { $0.sent = instant } }

    func received(by index: Int, at instant: ContinuousClock.Instant) {
        let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.total += 1
            if let sent = state.sent, state.first[index] == nil { state.first[index] = instant - sent }
            guard let (count, continuation) = state.waiter, state.total >= count else { return nil }
            state.waiter = nil
            return continuation
        }
        ready?.resume()
    }

    /// Returns once `count` receipts were recorded (the caller passes the number the
    /// transmitters counted, so this only waits for event tasks to catch up).
    func allReceived(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.total >= count { return true }
                state.waiter = (count, continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    func snapshot() -> ([Duration?], Int) { state.withLock { ($0.first, $0.total) } }
}
