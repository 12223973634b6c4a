import BlueproofBackend
import BlueproofHost
import BlueproofTestSupport
import BlueproofTransmitter
import BlueproofTransmitterLinks
import Crypto
import Foundation
import Testing

extension Integration {
    /// The transmitter's BLE link between two nodes on real btvirt controllers.
    @Suite("Transmitter BLE link")
    struct TransmitterLinkBLETests {
        /// The BLE binary limit (bridgefy-ios-sdk-readme.md).
        static let binaryLimit = 122_880

        static func frame(_ count: Int, seed: UInt8) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) ^ seed }
        }

        @Test("btvirt: two nodes discover each other, both connect (one LE connection), 122,880-byte frames both ways, disconnect seen on both",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func twoNodes() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            // Bare btvirt repeats no advertising reports: presence only ends with the link.
            try await withBLELinkNodes(2, label: "txlink-ble", profile: BLELinkProfile(staleAfter: nil)) { nodes in
                let (a, b) = (nodes[0], nodes[1])
                try await a.link.start(localUser: a.user)
                try await b.link.start(localUser: b.user)
                #expect(await a.log.wait(for: .peerNearby(b.user)), "a: \(a.log.events)")
                #expect(await b.log.wait(for: .peerNearby(a.user)), "b: \(b.log.events)")

                // Both call connect, as the transmitter in automatic mode does.
                async let fromA: Void = a.link.connect(to: b.user)
                async let fromB: Void = b.link.connect(to: a.user)
                _ = try await (fromA, fromB)
                #expect(await a.log.wait(for: .connected(b.user)))
                #expect(await b.log.wait(for: .connected(a.user)))
                #expect(await a.host.connections.count == 1, "exactly one LE connection")
                #expect(await b.host.connections.count == 1, "exactly one LE connection")
                // Each advertises and connects from a random address of its own (docs/security.md).
                #expect(await a.host.connections.first?.peerAddressType == .randomDevice)
                #expect(await b.host.connections.first?.peerAddressType == .randomDevice)

                // 122,880 bytes each way (plus a small frame behind it, which must not overtake).
                let big = Self.frame(Self.binaryLimit, seed: 0x5A)
                let clock = ContinuousClock()
                let started = clock.now
                try await a.link.send(big, to: b.user)
                try await a.link.send([7], to: b.user)
                let atB = await b.log.frame(from: a.user, count: big.count)
                let oneWay = started.duration(to: clock.now)
                #expect(atB.map { SHA256.hash(data: $0) } == SHA256.hash(data: big))
                #expect(await b.log.wait(for: .frame(from: a.user, bytes: [7])))
                let frames = b.log.events.compactMap { if case let .frame(_, bytes) = $0 { bytes.count } else { nil } }
                #expect(frames == [big.count, 1], "in order, once each")

                let back = Self.frame(Self.binaryLimit, seed: 0xA5)
                try await b.link.send(back, to: a.user)
                let atA = await a.log.frame(from: b.user, count: back.count)
                #expect(atA.map { SHA256.hash(data: $0) } == SHA256.hash(data: back))

                // Round trips of a 32-byte frame, a → b → a.
                var trips: [Duration] = []
                for round in 0..<10 {
                    let ping = [UInt8](repeating: UInt8(round), count: 32)
                    let start = clock.now
                    try await a.link.send(ping, to: b.user)
                    guard await b.log.wait(for: .frame(from: a.user, bytes: ping)) else { break }
                    try await b.link.send(ping, to: a.user)
                    guard await a.log.wait(for: .frame(from: b.user, bytes: ping)) else { break }
                    trips.append(start.duration(to: clock.now))
                }
                #expect(trips.count == 10)
                let seconds = Double(oneWay.components.seconds) + Double(oneWay.components.attoseconds) / 1e18
                print("BLELink on btvirt: 122,880-byte frame in \(oneWay) (\(Int(Double(big.count) / seconds)) B/s); 32-byte round trips: \(trips.sorted())")

                await a.link.disconnect(from: b.user)
                #expect(await a.log.wait(for: .disconnected(b.user)))
                #expect(await b.log.wait(for: .disconnected(a.user)))
                await #expect(throws: LinkError.self) { try await b.link.send([1], to: a.user) }
                #expect(await a.host.violations == [])
                #expect(await b.host.violations == [])
            }
        }

        /// A node with two connections: on btvirt this needs the preload library's handle
        /// translation (docs/transmitter-links.md, "Known limits"; TwoLinkTests).
        @Test("btvirt: three nodes, the hub connected to both others; frames both ways on each",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func hubNodeBTVirt() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await hub(on: .btvirt)
        }

        @Test("Rootcanal: three nodes, the hub connected to both others; frames both ways on each",
              .requires(.rootcanal, .preload), .timeLimit(.minutes(3)))
        func hubNode() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            try await hub(on: .rootcanal)
        }

        func hub(on spec: BackendSpec) async throws {
            try await withBLELinkNodes(3, on: spec, label: "txlink-three-\(spec)", profile: BLELinkProfile(staleAfter: nil)) { nodes in
                let (hub, b, c) = (nodes[0], nodes[1], nodes[2])
                for node in nodes { try await node.link.start(localUser: node.user) }
                for node in nodes {
                    for other in nodes where other.user != node.user {
                        #expect(await node.log.wait(for: .peerNearby(other.user)), "\(node.user): \(node.log.events)")
                    }
                }
                async let hb: Void = hub.link.connect(to: b.user)
                async let bh: Void = b.link.connect(to: hub.user)
                async let hc: Void = hub.link.connect(to: c.user)
                async let ch: Void = c.link.connect(to: hub.user)
                _ = try await (hb, bh, hc, ch)
                #expect(await hub.host.connections.count == 2)
                try await hub.link.send([1], to: b.user)
                try await hub.link.send([2], to: c.user)
                try await b.link.send([3], to: hub.user)
                try await c.link.send([4], to: hub.user)
                #expect(await b.log.wait(for: .frame(from: hub.user, bytes: [1])))
                #expect(await c.log.wait(for: .frame(from: hub.user, bytes: [2])))
                #expect(await hub.log.wait(for: .frame(from: b.user, bytes: [3])))
                #expect(await hub.log.wait(for: .frame(from: c.user, bytes: [4])))
            }
        }

        @Test("btvirt: a connection lost mid-frame fails the send with connectionLost; nothing partial arrives",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func lostMidFrame() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await withBLELinkNodes(2, label: "txlink-lost", profile: BLELinkProfile(staleAfter: nil)) { nodes in
                let (a, b) = (nodes[0], nodes[1])
                try await a.link.start(localUser: a.user)
                try await b.link.start(localUser: b.user)
                #expect(await a.log.wait(for: .peerNearby(b.user)))
                #expect(await b.log.wait(for: .peerNearby(a.user)))
                async let fromA: Void = a.link.connect(to: b.user)
                async let fromB: Void = b.link.connect(to: a.user)
                _ = try await (fromA, fromB)
                let big = Self.frame(Self.binaryLimit, seed: 1)
                // The peripheral notifies; the central drops the connection while chunks flow.
                let aConnection = try #require(await a.host.connections.first)
                let (central, peripheral) = aConnection.role == .central ? (a, b) : (b, a)
                let connection = try #require(await central.host.connections.first)
                let chunks = await central.host.notifications(on: connection)
                let sending = Task { try await peripheral.link.send(big, to: central.user) }
                // The first chunk arrived: the frame is in flight.
                for await _ in chunks { break }
                try await central.host.disconnect(connection)
                let outcome = await sending.result
                #expect(throws: LinkError.self) { try outcome.get() }
                if case let .failure(error) = outcome { #expect((error as? LinkError)?.reason == .connectionLost, "\(error)") }
                #expect(await peripheral.log.wait(for: .disconnected(central.user)))
                #expect(await central.log.wait(for: .disconnected(peripheral.user)))
                #expect(!central.log.events.contains { if case .frame = $0 { true } else { false } })
            }
        }

        @Test("btvirt: a frame the peripheral sends the moment it reports the connection reaches the central after its own .connected, over 20 connections",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        /// The race is the host's to schedule (it showed as BFT/LIFE/BV-10 losing a frame in 3 of
        /// 40 runs): 20 connections give it room, and the order must hold in every one.
        func noFrameBeforeConnected() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await withBLELinkNodes(2, label: "txlink-order", profile: BLELinkProfile(staleAfter: nil)) { nodes in
                let (a, b) = (nodes[0], nodes[1])
                try await a.link.start(localUser: a.user)
                try await b.link.start(localUser: b.user)
                #expect(await a.log.wait(for: .peerNearby(b.user)))
                #expect(await b.log.wait(for: .peerNearby(a.user)))
                for round in 0..<20 {
                    let (fromA, fromB) = (a.log.events.count, b.log.events.count)
                    // b reports the connection once it keeps it, possibly before a has (a's adopt
                    // chunk can still be on its way); it sends at once.
                    let sending = Task {
                        guard await b.log.first(within: .seconds(15), from: fromB, where: { $0 == .connected(a.user) }) != nil else { return }
                        try await b.link.send([UInt8(round)], to: a.user)
                    }
                    async let ab: Void = a.link.connect(to: b.user)
                    async let ba: Void = b.link.connect(to: a.user)
                    _ = try await (ab, ba)
                    try await sending.value
                    #expect(await a.log.wait(for: .frame(from: b.user, bytes: [UInt8(round)])), "round \(round): \(a.log.events)")
                    let seen = Array(a.log.events.dropFirst(fromA))
                    let connected = seen.firstIndex(of: .connected(b.user)), frame = seen.firstIndex(of: .frame(from: b.user, bytes: [UInt8(round)]))
                    #expect(connected != nil && frame != nil && connected! < frame!, "round \(round): \(seen)")
                    await a.link.disconnect(from: b.user)
                    for (node, other, mark) in [(a, b, fromA), (b, a, fromB)] {
                        #expect(await node.log.first(within: .seconds(15), from: mark, where: { $0 == .disconnected(other.user) }) != nil, "round \(round)")
                    }
                }
            }
        }
    }
}
