import BlueproofAsync
import BlueproofBackend
import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Testing

extension Integration {
    /// One node holding two LE connections at once on one btvirt: the relay of a 3-node mesh.
    ///
    /// btvirt 5.66 gives each end of a link its own handle but reports the initiator's to both
    /// hosts and forwards ACL data with the sender's handle; a node's second link (43 there, 42
    /// on a fresh peer) then loses the peer's data. The preload library makes the handles
    /// consistent (docs/transmitter-links.md, Known limits).
    @Suite("Two links on one node")
    struct TwoLinkTests {
        /// B's role on its second link (to C); on the first (to A) B is central.
        enum SecondRole: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case central, peripheral
            var testDescription: String { "B \(rawValue) to C" }
            var role: HCIConnectionRole { self == .central ? .central : .peripheral }
        }

        @Test("btvirt: B central to A and central or peripheral to C; MTU exchange, write, notify and read on both links",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)), arguments: SecondRole.allCases)
        func relayWithTwoLinks(second: SecondRole) async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("two-links-\(second.rawValue)")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, count: 3, in: folder) { nodes in
                let (a, b, c) = (nodes.hosts[0], nodes.hosts[1], nodes.hosts[2])
                for host in [a, b, c] { try await host.serve([TestService.definition]) }

                // First link: B opens it to A (42 on both controllers).
                let atA = await a.incomingConnections()
                try await a.startAdvertising(LEAdvertisingParameters(data: []))
                let bToA = try await b.connect(to: await a.address, type: .publicDevice)
                let aToB = try await firstValue(of: atA, within: .seconds(2), "A accepts B") { $0 }

                // Second link: 43 on B's controller, 42 on C's.
                let bToC: LEConnection, cToB: LEConnection
                switch second {
                case .central:
                    let atC = await c.incomingConnections()
                    try await c.startAdvertising(LEAdvertisingParameters(data: []))
                    bToC = try await b.connect(to: await c.address, type: .publicDevice)
                    cToB = try await firstValue(of: atC, within: .seconds(2), "C accepts B") { $0 }
                case .peripheral:
                    let atB = await b.incomingConnections()
                    try await b.startAdvertising(LEAdvertisingParameters(data: []))
                    cToB = try await c.connect(to: await b.address, type: .publicDevice)
                    bToC = try await firstValue(of: atB, within: .seconds(2), "B accepts C") { $0 }
                }
                #expect(bToA.role == .central && bToC.role == second.role)
                #expect(await b.connections.count == 2)
                #expect(Set([bToA.handle, bToC.handle]).count == 2, "B tells its links apart")

                // Each link both ways: B as client of A and of C, A and C as clients of B.
                for (server, link, clientLink) in [(a, bToA, aToB), (c, bToC, cToB)] {
                    try await checkLink(client: b, on: link, server: server, serverSide: clientLink)
                    try await checkLink(client: server, on: clientLink, server: b, serverSide: link)
                }
                #expect(await b.attMTU(on: bToA) == 185)
                #expect(await b.attMTU(on: bToC) == 185)

                try await b.disconnect(bToA)
                #expect(await a.waitForDisconnection(aToB) == .remoteUserTerminated)
                try await c.disconnect(cToB)
                #expect(await b.waitForDisconnection(bToC) == .remoteUserTerminated)
                #expect(await b.connections.isEmpty)
                #expect(await nodes.violations() == [[], [], []])
            }
        }

        /// `client` exchanges the MTU, finds the test service, writes to it and is notified,
        /// then reads a value longer than one ATT_MTU from `server`.
        func checkLink(client: LEHost, on link: LEConnection, server: LEHost, serverSide: LEConnection) async throws {
            let gatt = client.gattClient(for: link)
            #expect(try await withTimeout(.seconds(2), what: "the MTU exchange") { try await gatt.exchangeMTU(185) } == 185)
            let service = try #require(try await gatt.discoverPrimaryService(uuid: TestService.service).first)
            let characteristics = try await gatt.discoverCharacteristics(of: service)
            let notify = try #require(characteristics.first { $0.uuid == TestService.notify })
            let write = try #require(characteristics.first { $0.uuid == TestService.write })

            let written = await server.gattServerEvents()
            let value = Array("to \(serverSide.handle) from \(link.handle)".utf8)
            try await gatt.write(handle: write.valueHandle, value: value)
            let arrived = try await firstValue(of: written, within: .seconds(2), "the write on the server") {
                if case let .written(connection, handle, bytes, _) = $0, handle == write.valueHandle { (connection, bytes) } else { nil }
            }
            #expect(arrived.0.handle == serverSide.handle && arrived.1 == value, "written on the right link")

            let notifications = await client.notifications(on: link)
            try await gatt.subscribe(notify)
            let sent = Array("notified on \(serverSide.handle)".utf8)
            #expect(try await server.notify(sent, of: notify.valueHandle, to: serverSide))
            let received = try await firstValue(of: notifications, within: .seconds(2), "the notification") { $0 }
            #expect(received.value == sent && received.handle == notify.valueHandle)

            let read = try #require(characteristics.first { $0.uuid == TestService.read })
            #expect(try await gatt.read(handle: read.valueHandle) == pattern(300))
        }
    }
}
