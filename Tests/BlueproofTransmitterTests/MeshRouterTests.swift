import BlueproofTransmitter
import Foundation
import Testing

@Suite("Mesh: duplicate cache and router (sans I/O)")
struct MeshRouterTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let me = UserID.random(), sender = UserID.random(), n1 = UserID.random(), n2 = UserID.random(), n3 = UserID.random()

    static func frame(to receiver: UserID?, hops: UInt8 = 3, expiresIn: TimeInterval = 60, id: PacketID = PacketID()) -> DataFrame {
        DataFrame(flags: receiver == nil ? [.broadcast, .mesh, .hasDictionary] : [.mesh, .hasDictionary], hopsRemaining: hops,
                  packetID: id, sender: sender, receiver: receiver, expiry: DataFrame.milliseconds(start.addingTimeInterval(expiresIn)),
                  senderKey: [], payload: [])
    }

    static func forwards(_ actions: [MeshAction]) -> [UserID: UInt8] {
        var out: [UserID: UInt8] = [:]
        for case .forward(let frame, let peer) in actions { out[peer] = frame.hopsRemaining }
        return out
    }

    static func delivered(_ actions: [MeshAction]) -> Int {
        actions.filter { if case .deliver = $0 { true } else { false } }.count
    }

    @Test("the cache evicts the least recently used id")
    func lru() {
        var cache = DuplicateCache<Int>(capacity: 3)
        let firsts = [cache.insert(1), cache.insert(2), cache.insert(3)]
        #expect(firsts == [true, true, true])
        let again = cache.insert(1)  // 1 becomes the newest
        #expect(!again)
        let four = cache.insert(4)   // evicts 2
        #expect(four)
        #expect(cache.contains(1) && !cache.contains(2) && cache.contains(3) && cache.contains(4))
        #expect(cache.count == 3)
        let two = cache.insert(2)    // evicts 3
        #expect(two)
        #expect(!cache.contains(3))
    }

    @Test("a broadcast is forwarded to every neighbour but the one it came from, hop count decremented, and delivered after its forwards")
    func broadcast() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16)
        let actions = router.receive(Self.frame(to: nil), from: Self.n1, neighbours: [Self.n1, Self.n2, Self.n3, Self.sender], now: Self.start)
        #expect(Self.delivered(actions) == 1)
        #expect(Self.forwards(actions) == [Self.n2: 2, Self.n3: 2])
        // BFT/DLV/BI-05 reads a relay's report as "its forwards are on the link": the delivery comes last.
        if case .deliver = actions.last {} else { Issue.record("the last action is \(String(describing: actions.last)), not the delivery") }
    }

    @Test("a packet for this node is delivered and not forwarded; one for another is forwarded, not delivered")
    func unicast() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16)
        let mine = router.receive(Self.frame(to: Self.me), from: Self.n1, neighbours: [Self.n1, Self.n2], now: Self.start)
        #expect(Self.delivered(mine) == 1 && Self.forwards(mine).isEmpty)
        let theirs = router.receive(Self.frame(to: Self.n3), from: Self.n1, neighbours: [Self.n1, Self.n2], now: Self.start)
        #expect(Self.delivered(theirs) == 0 && Self.forwards(theirs) == [Self.n2: 2])
    }

    @Test("1,000 copies: delivered once, forwarded once per neighbour")
    func flood() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16)
        let frame = Self.frame(to: nil)
        var deliveries = 0
        var forwards: [UserID: Int] = [:]
        for copy in 0..<1000 {
            let from = [Self.n1, Self.n2, Self.n3][copy % 3]
            let actions = router.receive(frame, from: from, neighbours: [Self.n1, Self.n2, Self.n3], now: Self.start)
            deliveries += Self.delivered(actions)
            for peer in Self.forwards(actions).keys { forwards[peer, default: 0] += 1 }
        }
        #expect(deliveries == 1)
        #expect(forwards == [Self.n2: 1, Self.n3: 1])
        // A neighbour connecting later gets the held copy once; those that sent or got it, never.
        let sender = router.neighbourConnected(Self.n1, now: Self.start)
        #expect(Self.forwards(sender).isEmpty)
        let late = UserID.random()
        let first = router.neighbourConnected(late, now: Self.start)
        #expect(Self.forwards(first) == [late: 2])
        let second = router.neighbourConnected(late, now: Self.start)
        #expect(Self.forwards(second).isEmpty)
    }

    @Test("with noDuplicateCache every copy is delivered")
    func floodDefect() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16, defects: .noDuplicateCache)
        let frame = Self.frame(to: nil)
        let deliveries = (0..<10).map { _ in Self.delivered(router.receive(frame, from: Self.n1, neighbours: [Self.n1], now: Self.start)) }.reduce(0, +)
        #expect(deliveries == 10)
    }

    @Test("zero hops remaining: delivered, not forwarded (unless hopLimitIgnored)")
    func hops() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16)
        let actions = router.receive(Self.frame(to: nil, hops: 0), from: Self.n1, neighbours: [Self.n1, Self.n2], now: Self.start)
        #expect(Self.delivered(actions) == 1 && Self.forwards(actions).isEmpty)
        #expect(actions.contains(.dropped(actions.compactMap { if case .deliver(let f) = $0 { f.packetID } else { nil } }[0], reason: MeshDropReason.outOfHops)))
        var broken = MeshRouter(localUser: Self.me, duplicateCapacity: 16, defects: .hopLimitIgnored)
        let ignored = broken.receive(Self.frame(to: nil, hops: 0), from: Self.n1, neighbours: [Self.n1, Self.n2], now: Self.start)
        #expect(Self.forwards(ignored) == [Self.n2: 0])
    }

    @Test("an expired frame is dropped; held packets expire, local ones as discarded")
    func expiry() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16)
        let stale = router.receive(Self.frame(to: nil, expiresIn: -1), from: Self.n1, neighbours: [Self.n1, Self.n2], now: Self.start)
        #expect(Self.delivered(stale) == 0 && Self.forwards(stale).isEmpty)
        let own = Self.frame(to: Self.n3, expiresIn: 10)
        _ = router.originate(own, neighbours: [], now: Self.start)
        #expect(router.heldPackets.count == 1)
        let later = router.neighbourConnected(Self.n2, now: Self.start.addingTimeInterval(10))
        #expect(later == [.discarded(own.packetID, reason: MeshDropReason.expired)])
        #expect(router.heldPackets.isEmpty)
    }

    @Test("a direct frame for someone else is neither delivered nor forwarded")
    func directNotRelayed() {
        var router = MeshRouter(localUser: Self.me, duplicateCapacity: 16)
        var frame = Self.frame(to: Self.n3)
        frame.flags = [.hasDictionary]
        let actions = router.receive(frame, from: Self.n1, neighbours: [Self.n1, Self.n2], now: Self.start)
        #expect(Self.delivered(actions) == 0 && Self.forwards(actions).isEmpty)
    }
}
