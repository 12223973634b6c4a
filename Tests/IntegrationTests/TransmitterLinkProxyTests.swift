import BlueproofBackend
import BlueproofHost
import BlueproofRadio
import BlueproofTestSupport
import BlueproofTransmitter
import BlueproofTransmitterLinks
import Testing

extension Integration {
    /// Three BLE transmitter nodes on btvirt behind the radio proxy, in a line: A and C are out
    /// of range of each other, B is in range of both.
    @Suite("Transmitter BLE link through the radio proxy")
    struct TransmitterLinkProxyTests {
        static let line = """
            # A - B - C: neighbours at -40 dBm, A and C at -100 (below the -80 dBm sensitivity).
            seed: 1
            advertising-interval: 100ms
            sensitivity: -80
            nodes:
              - name: a
              - name: b
              - name: c
            links:
              - between: [a, b]
                fixed: -40
              - between: [b, c]
                fixed: -40
              - between: [a, c]
                fixed: -100
            """

        @Test("btvirt + proxy, A-B-C: A sees B not C, B sees both, C sees B not A; B connected to A and C at once",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func lineOfThree() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            // B's second connection needs the preload library's handle translation (TwoLinkTests).
            try await line(on: .btvirt)
        }

        @Test("Rootcanal + proxy, A-B-C: the same presence, and B connected to A and C at once (central to C, peripheral to A)",
              .requires(.rootcanal, .preload), .timeLimit(.minutes(3)))
        func lineOfThreeRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            try await line(on: .rootcanal)
        }

        /// Two nodes whose link follows `link` (a `fixed:` or `schedule:` line).
        static func twoNodes(_ comment: String, link: String) -> String {
            """
            # \(comment)
            seed: 1
            advertising-interval: 100ms
            sensitivity: -80
            nodes:
              - name: a
              - name: b
            links:
              - between: [a, b]
                \(link)
            """
        }

        static let walkAway = twoNodes("Two nodes in range (-40 dBm) until 5 s, then out of range (-100 dBm, sensitivity -80).",
                                       link: "schedule: [{at: 0s, rssi: -40}, {at: 5s, rssi: -100}]")

        /// Starts both nodes, waits until each sees the other, and connects them as automatic
        /// mode does (both sides call connect).
        static func startAndConnect(_ a: BLELinkNode, _ b: BLELinkNode) async throws {
            for node in [a, b] { try await node.link.start(localUser: node.user) }
            #expect(await a.log.wait(for: .peerNearby(b.user)))
            #expect(await b.log.wait(for: .peerNearby(a.user)))
            async let ab: Void = a.link.connect(to: b.user)
            async let ba: Void = b.link.connect(to: a.user)
            _ = try await (ab, ba)
        }

        @Test("btvirt + proxy: connected peers that leave range are disconnected, then gone, on both sides",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func leavingRange() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let world = RadioWorld(scenario: try RadioScenario.load(yaml: Self.walkAway, file: "walk-away.yaml"))
            defer { world.shutdown() }
            try await withBLELinkNodes(2, label: "txlink-walk", world: world,
                                       profile: BLELinkProfile(staleAfter: .seconds(1))) { nodes in
                let (a, b) = (nodes[0], nodes[1])
                try await Self.startAndConnect(a, b)
                for (node, other) in [(a, b), (b, a)] {
                    #expect(await node.log.wait(for: .disconnected(other.user), within: .seconds(15)), "\(node.log.events)")
                    #expect(await node.log.wait(for: .peerGone(other.user), within: .seconds(5)), "\(node.log.events)")
                }
                #expect(a.log.events.filter { $0 == .peerNearby(b.user) }.count == 1, "\(a.log.events)")
            }
        }

        private func line(on spec: BackendSpec) async throws {
            let world = RadioWorld(scenario: try RadioScenario.load(yaml: Self.line, file: "line.yaml"))
            defer { world.shutdown() }
            try await withBLELinkNodes(3, on: spec, label: "txlink-line", world: world,
                                       profile: BLELinkProfile(staleAfter: .seconds(3))) { nodes in
                let (a, b, c) = (nodes[0], nodes[1], nodes[2])
                for node in nodes { try await node.link.start(localUser: node.user) }
                #expect(await b.log.wait(for: .peerNearby(a.user)), "b: \(b.log.events)")
                #expect(await b.log.wait(for: .peerNearby(c.user)), "b: \(b.log.events)")
                #expect(await a.log.wait(for: .peerNearby(b.user)), "a: \(a.log.events)")
                #expect(await c.log.wait(for: .peerNearby(b.user)), "c: \(c.log.events)")
                // A second more of repeated reports: still nobody sees across the gap.
                #expect(await a.log.first(within: .seconds(1)) { $0 == .peerNearby(c.user) } == nil)
                #expect(!c.log.events.contains(.peerNearby(a.user)))
                await #expect(throws: LinkError(.peerUnreachable, "\(c.user) is not nearby")) { try await a.link.connect(to: c.user) }

                // Automatic mode: both sides of a pair call connect.
                async let ab: Void = a.link.connect(to: b.user)
                async let ba: Void = b.link.connect(to: a.user)
                _ = try await (ab, ba)
                async let bc: Void = b.link.connect(to: c.user)
                async let cb: Void = c.link.connect(to: b.user)
                _ = try await (bc, cb)
                #expect(await b.host.connections.count == 2)
                try await a.link.send(Array("to b".utf8), to: b.user)
                try await b.link.send(Array("to a".utf8), to: a.user)
                #expect(await b.log.wait(for: .frame(from: a.user, bytes: Array("to b".utf8))))
                #expect(await a.log.wait(for: .frame(from: b.user, bytes: Array("to a".utf8))))
                try await c.link.send(Array("also to b".utf8), to: b.user)
                try await b.link.send(Array("to c".utf8), to: c.user)
                #expect(await b.log.wait(for: .frame(from: c.user, bytes: Array("also to b".utf8))))
                #expect(await c.log.wait(for: .frame(from: b.user, bytes: Array("to c".utf8))))
                // Nearby peers stay nearby while reports repeat (no spurious peerGone).
                #expect(!a.log.events.contains(.peerGone(b.user)))
                #expect(!b.log.events.contains(.peerGone(c.user)))

                // C goes quiet: B reports it gone once its 3 s deadline passes (after the
                // disconnection, when connected); A, which never saw C, reports nothing of it.
                await c.link.stop()
                #expect(await b.log.wait(for: .disconnected(c.user)))
                #expect(await b.log.wait(for: .peerGone(c.user), within: .seconds(10)), "b: \(b.log.events)")
                #expect(!a.log.events.contains { [.peerNearby(c.user), .peerGone(c.user)].contains($0) })
                #expect(!b.log.events.contains(.peerGone(a.user)))
            }
        }
    }
}
