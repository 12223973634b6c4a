import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofRadio
import BlueproofTransmitter
import BlueproofTransmitterLinks
import Synchronization

/// Every event a transmitter link reported, and waiting for one that matches.
final class TransmitterLinkEventLog: Sendable {
    private struct State {
        var events: [LinkEvent] = []
        var waiters: [(match: @Sendable (LinkEvent) -> Bool, found: OneShot<LinkEvent>)] = []
    }

    private let state = Mutex(State())

    init(_ stream: AsyncStream<LinkEvent>) {
        Task { [self] in
            for await event in stream { record(event) }
        }
    }

    private func record(_ event: LinkEvent) {
        let ready = state.withLock { state -> [OneShot<LinkEvent>] in
            state.events.append(event)
            let hit = state.waiters.filter { $0.match(event) }
            state.waiters.removeAll { $0.match(event) }
            return hit.map(\.found)
        }
        for found in ready { found.resolve(event) }
    }

    var events: [LinkEvent] { state.withLock { $0.events } }

    /// The first event (seen from index `start` on, or to come) that matches, or nil after `limit`.
    func first(within limit: Duration = .seconds(15), from start: Int = 0,
               _ match: @escaping @Sendable (LinkEvent) -> Bool) async -> LinkEvent? {
        let found = OneShot<LinkEvent>()
        let seen = state.withLock { state -> LinkEvent? in
            if let event = state.events.dropFirst(start).first(where: match) { return event }
            state.waiters.append((match, found))
            return nil
        }
        if let seen { return seen }
        return try? await withTimeout(limit, what: "a link event") { await found.wait() } ?? nil
    }

    func wait(for event: LinkEvent, within limit: Duration = .seconds(15)) async -> Bool {
        await first(within: limit) { $0 == event } != nil
    }

    /// The bytes of the first frame from `peer` whose size is `count`.
    func frame(from peer: UserID, count: Int, within limit: Duration = .seconds(30)) async -> [UInt8]? {
        let event = await first(within: limit) {
            if case let .frame(from, bytes) = $0 { from == peer && bytes.count == count } else { false }
        }
        guard case let .frame(_, bytes)? = event else { return nil }
        return bytes
    }
}

/// One BLE transmitter node in a test: its host, link, user and events.
struct BLELinkNode: Sendable {
    let host: LEHost
    let link: BLELink
    let user: UserID
    let log: TransmitterLinkEventLog
}

/// Starts `spec` (btvirt by default), opens `count` started LE hosts (each recording to `nodeN.pcap`) (through `world` when given, node i on its
/// node i), makes a BLE link on each with `profile` and ids ordered as the nodes (node 0 the
/// lowest), runs `body`, then stops the links and closes everything.
func withBLELinkNodes(
    _ count: Int, on spec: BackendSpec = .btvirt, label: String, world: RadioWorld? = nil, profile: BLELinkProfile,
    _ body: ([BLELinkNode]) async throws -> Void
) async throws {
    let folder = try WorkFolder(label)
    defer { folder.cleanUp() }
    try await withBackend(spec, in: folder.file(spec.description)) { backend in
        var nodes: [BLELinkNode] = []
        var writers: [PcapWriter] = []
        defer { writers.forEach { $0.close() } }
        do {
            for index in 0..<count {
                let writer = try PcapWriter(path: folder.file("node\(index).pcap"))
                writers.append(writer)
                let transport = try await backend.openController(capture: writer)
                let host = LEHost(controller: HCIController(transport: world?.attach(node: index, to: transport) ?? transport))
                try await host.start()
                let link = BLELink(host: host, profile: profile)
                let user = UserID("\(String(format: "%08x", index + 1))-0000-4000-8000-000000000000")!
                nodes.append(BLELinkNode(host: host, link: link, user: user, log: TransmitterLinkEventLog(link.events())))
            }
            try await body(nodes)
        } catch {
            for node in nodes {
                await node.link.stop()
                await node.host.close()
            }
            throw error
        }
        for node in nodes {
            await node.link.stop()
            await node.host.close()
        }
    }
}
