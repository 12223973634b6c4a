import BlueproofBackend
import BlueproofHost
import BlueproofRadio
import BlueproofTestSupport
import BlueproofWire
import Testing

extension Integration {
    /// Two of our LE hosts on btvirt with the radio proxy between each host and its controller.
    @Suite("Radio proxy")
    struct RadioProxyTests {
        @Test("btvirt through the proxy: a fixed -45 dBm reaches discovery (btvirt alone gives none)",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func fixedRSSI() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await withProxiedHosts(.fixed(rssi: -45)) { world, peripheral, central in
                try await peripheral.startAdvertising(LEAdvertisingParameters(
                    data: try AdvertisingData([.flags(.generalDiscoverableLEOnly), .localName("bp-radio")]).encodedLegacy()))
                let address = await peripheral.address
                let devices = try await central.discover()
                let device = try await firstValue(of: devices, within: .seconds(5), "the peripheral through the proxy") {
                    $0.address == address ? $0 : nil
                }
                #expect(device.rssi == -45)
                #expect(world.faultLog.isEmpty, "nothing injected: \(world.faultLog)")
            }
        }

        @Test("btvirt through the proxy: connecting to an out-of-range peer times out and is cancelled",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func outOfRange() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            try await withProxiedHosts(.fixed(rssi: -100)) { world, peripheral, central in
                try await peripheral.startAdvertising(LEAdvertisingParameters(data: []))
                let address = await peripheral.address
                do throws(LEHostError) {
                    let connection = try await central.connect(to: address, type: .publicDevice, timeout: .milliseconds(300))
                    Issue.record("connected to an out-of-range peer: \(connection)")
                } catch {
                    #expect(error == .connectTimedOut(peer: address, limit: .milliseconds(300)), "\(error)")
                }
                #expect(world.faultLog.map(\.kind) == [.connectionHeld, .connectionCancelled])
                #expect(await central.connections.isEmpty)
                #expect(await central.violations == [])
            }
        }

        /// Starts btvirt, opens two started LE hosts through one radio world (node 0 the
        /// peripheral, node 1 the central), runs `body`, closes everything.
        func withProxiedHosts(
            _ scenario: RadioScenario,
            _ body: (RadioWorld, LEHost, LEHost) async throws -> Void
        ) async throws {
            let folder = try WorkFolder("radio")
            defer { folder.cleanUp() }
            let world = RadioWorld(scenario: scenario)
            defer { world.shutdown() }
            try await withBackend(.btvirt, in: folder.file("btvirt")) { backend in
                var hosts: [LEHost] = []
                do {
                    for node in 0..<2 {
                        let transport = world.attach(node: node, to: try await backend.openController(capture: nil))
                        let host = LEHost(controller: HCIController(transport: transport))
                        hosts.append(host)
                        try await host.start()
                    }
                    try await body(world, hosts[0], hosts[1])
                } catch {
                    for host in hosts { await host.close() }
                    throw error
                }
                for host in hosts { await host.close() }
            }
        }
    }
}
