import BlueproofTransmitter
import BlueproofTransmitterLinks
import Crypto
import Testing

/// Real sockets on loopback: two and three TCP link nodes.
@Suite("TCP link", .timeLimit(.minutes(5)))
struct TCPLinkTests {
    struct Node {
        let user: UserID
        let link: TCPLink
        let log: LinkEventLog
        let address: TCPAddress
    }

    /// Starts `count` nodes on loopback; each is given every other node's address.
    static func nodes(_ count: Int, users: [UserID]? = nil) async throws -> [Node] {
        var nodes: [Node] = []
        for index in 0..<count {
            let link = TCPLink()
            let log = LinkEventLog(link.events())
            let user = users?[index] ?? UserID.random()
            try await link.start(localUser: user)
            let address = try #require(await link.listeningAddress)
            nodes.append(Node(user: user, link: link, log: log, address: address))
        }
        for node in nodes {
            for other in nodes where other.user != node.user { await node.link.addPeer(other.address) }
        }
        return nodes
    }

    static func frame(_ count: Int, seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) ^ seed } }

    @Test("two nodes: nearby with the right ids, both connect, frames both ways, disconnect reported on both")
    func twoNodes() async throws {
        let nodes = try await Self.nodes(2)
        let (a, b) = (nodes[0], nodes[1])
        #expect(await a.log.wait(for: .peerNearby(b.user)))
        #expect(await b.log.wait(for: .peerNearby(a.user)))
        async let first: Void = a.link.connect(to: b.user)
        async let second: Void = b.link.connect(to: a.user)
        _ = try await (first, second)
        #expect(await a.log.wait(for: .connected(b.user)))
        #expect(await b.log.wait(for: .connected(a.user)))

        let big = Self.frame(122_880, seed: 1)
        try await a.link.send(big, to: b.user)
        try await b.link.send([1, 2, 3], to: a.user)
        try await a.link.send([], to: b.user)
        let got = await b.log.first(within: .seconds(10)) { if case .frame(from: a.user, _) = $0 { true } else { false } }
        guard case let .frame(_, bytes)? = got else { Issue.record("no frame at b"); return }
        #expect(SHA256.hash(data: bytes) == SHA256.hash(data: big))
        #expect(await a.log.wait(for: .frame(from: b.user, bytes: [1, 2, 3])))
        #expect(await b.log.wait(for: .frame(from: a.user, bytes: [])))
        #expect(a.log.events.filter { $0 == .connected(b.user) }.count == 1, "one connection: \(a.log.events)")

        await a.link.disconnect(from: b.user)
        #expect(await a.log.wait(for: .disconnected(b.user)))
        #expect(await b.log.wait(for: .disconnected(a.user)))
        await #expect(throws: LinkError.self) { try await a.link.send([1], to: b.user) }
        for node in nodes { await node.link.stop() }
        #expect(await a.log.waitForEnd())
    }

    @Test("three nodes: everyone sees everyone, frames reach each peer")
    func threeNodes() async throws {
        let nodes = try await Self.nodes(3)
        for node in nodes {
            for other in nodes where other.user != node.user {
                #expect(await node.log.wait(for: .peerNearby(other.user)), "\(node.user) sees \(other.user)")
                try await node.link.connect(to: other.user)
            }
        }
        for (index, node) in nodes.enumerated() {
            for other in nodes where other.user != node.user {
                try await node.link.send([UInt8(index)], to: other.user)
                #expect(await other.log.wait(for: .frame(from: node.user, bytes: [UInt8(index)])))
            }
        }
        for node in nodes { await node.link.stop() }
    }

    static let low = UserID("00000000-0000-4000-8000-000000000001")!
    static let high = UserID("ffffffff-0000-4000-8000-000000000000")!

    @Test("a peer that stops is disconnected, then gone; sending to it fails (the stopped peer's id lower, then higher)",
          arguments: [true, false])
    func peerStops(stoppedIsLower: Bool) async throws {
        let nodes = try await Self.nodes(2, users: stoppedIsLower ? [Self.high, Self.low] : [Self.low, Self.high])
        let (a, b) = (nodes[0], nodes[1])
        #expect(await a.log.wait(for: .peerNearby(b.user)))
        try await a.link.connect(to: b.user)
        #expect(await b.log.wait(for: .connected(a.user)))
        await b.link.stop()
        #expect(await a.log.wait(for: .disconnected(b.user)))
        #expect(await a.log.wait(for: .peerGone(b.user)))
        await #expect(throws: LinkError(.peerUnreachable, "\(b.user) is not connected")) { try await a.link.send([1], to: b.user) }
        await #expect(throws: LinkError(.peerUnreachable, "\(b.user) is not nearby")) { try await a.link.connect(to: b.user) }
        await a.link.stop()
    }

    @Test("a node that cannot listen is unavailable; frames over the limit are refused")
    func refusals() async throws {
        // Only c knows a's address, so c must be the lower id: the lower id dials.
        let aUser = UserID("ffffffff-0000-4000-8000-000000000000")!
        let cUser = UserID("00000000-0000-4000-8000-000000000001")!
        let a = TCPLink(configuration: TCPLinkConfiguration(frameLimit: 10))
        try await a.start(localUser: aUser)
        let taken = try #require(await a.listeningAddress)
        let b = TCPLink(configuration: TCPLinkConfiguration(listen: taken))
        await #expect(throws: LinkError.self) { try await b.start(localUser: .random()) }

        let c = TCPLink(configuration: TCPLinkConfiguration(peers: [taken]))
        let cLog = LinkEventLog(c.events())
        let aLog = LinkEventLog(a.events())
        try await c.start(localUser: cUser)
        #expect(await cLog.wait(for: .peerNearby(aUser)))
        #expect(await aLog.wait(for: .peerNearby(cUser)))
        try await a.connect(to: cUser)
        await #expect(throws: LinkError(.refused, "a frame of 11 bytes is over the link's 10")) {
            try await a.send(Array(repeating: 0, count: 11), to: cUser)
        }
        await a.stop()
        await c.stop()
    }
}
