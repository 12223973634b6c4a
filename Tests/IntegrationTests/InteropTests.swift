import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Foundation
import Testing

/// Our LE host against Google's Bumble, an independent stack, over the same virtual controller:
/// GATT both ways round and an LE credit-based channel carrying 100 KB each way. The captures of
/// our side must decode in tshark with no malformed frame.
extension Integration {
    @Suite("Interop with Bumble")
    struct InteropTests {
        // MARK: Bumble central, blueproof peripheral

        @Test("btvirt: a Bumble central uses our GATT server", .requires(.bumble, .btvirt, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumbleCentralBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload, .tshark)
            try await bumbleCentral(.btvirt)
        }

        @Test("Rootcanal: a Bumble central uses our GATT server", .requires(.bumble, .rootcanal, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumbleCentralRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload, .tshark)
            try await bumbleCentral(.rootcanal)
        }

        private func bumbleCentral(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("interop-server-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, count: 1, in: folder) { nodes in
                let host = nodes.hosts[0]
                try await host.serve([TestService.definition], deviceName: "bp-server")
                let database = try #require(await host.gattDatabase)
                let notifyHandle = try #require(database.characteristic(uuid: TestService.notify)?.valueHandle)
                let events = await host.gattServerEvents()
                let incoming = await host.incomingConnections()
                var data = AdvertisingData([.flags(.generalDiscoverableLEOnly)])
                data.append(contentsOf: AdvertisingDataStructure.serviceUUIDs([TestService.service], complete: true))
                try await host.startAdvertising(LEAdvertisingParameters(
                    data: try data.encodedLegacy(), scanResponse: try AdvertisingData([.localName("bp-server")]).encodedLegacy()))
                let address = await host.address

                try await BumblePeer.withPeer(
                    "gatt-central", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("central.log"),
                    arguments: ["--peer", "\(address)", "--peer-type", "public", "--mtu", "247",
                                "--expect-bytes", "\(TestService.bulk)", "--indicate"]) { central in
                    let connection = try await firstValue(of: incoming, within: .seconds(15), "Bumble's connection") { $0 }
                    #expect(try await central.next(event: "mtu", within: .seconds(10)).int("mtu") == 247)
                    let services = try #require(try await central.next(event: "services", within: .seconds(10))["services"]?.array)
                    #expect(services.contains { $0["uuid"]?.string == "\(TestService.service)" }, "\(services)")
                    let read = try await central.next(event: "read", within: .seconds(10))
                    #expect(read.int("bytes") == 300 && read.bool("pattern_ok") == true, "\(read)")

                    // Subscribed: notify 100 KB in ATT_MTU - 3 chunks, then indicate once.
                    _ = try await firstValue(of: events, within: .seconds(10), "the subscription") { event -> Bool? in
                        if case let .subscriptionChanged(_, characteristic, true, true) = event, characteristic == notifyHandle { return true }
                        return nil
                    }
                    let chunk = await host.attMTU(on: connection) - 3
                    #expect(chunk == 244)
                    var sent = 0
                    while sent < TestService.bulk {
                        let size = min(chunk, TestService.bulk - sent)
                        try #require(try await host.notify(pattern(size, from: sent), of: notifyHandle, to: connection))
                        sent += size
                    }
                    let received = try await central.next(event: "received", within: .seconds(60))
                    #expect(received.int("bytes") == TestService.bulk && received.bool("pattern_ok") == true, "\(received)")
                    #expect(try await host.indicate(Array(0..<20), of: notifyHandle, to: connection))
                    #expect(try await central.next(event: "indication", within: .seconds(10)).string("value")
                            == hex(Array<UInt8>(0..<20)))

                    // Both writes arrived, with and without response.
                    var writes: [String: Bool] = [:]
                    for await event in events {
                        if case let .written(_, _, value, withResponse) = event { writes[hex(value)] = withResponse }
                        if writes.count == 2 { break }
                    }
                    #expect(writes == ["c0ffee01": true, "c0ffee02": false])
                    _ = try await central.next(event: "done", within: .seconds(10))
                    #expect(await host.waitForDisconnection(connection) != nil)
                }
                #expect(await nodes.violations() == [[]])
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btatt.opcode == 0x1b")
        }

        // MARK: blueproof central, Bumble GATT server

        @Test("btvirt: our GATT client uses a Bumble server", .requires(.bumble, .btvirt, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumbleServerBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload, .tshark)
            try await bumbleServer(.btvirt)
        }

        @Test("Rootcanal: our GATT client uses a Bumble server", .requires(.bumble, .rootcanal, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumbleServerRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload, .tshark)
            try await bumbleServer(.rootcanal)
        }

        private func bumbleServer(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("interop-client-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, count: 1, in: folder) { nodes in
                let host = nodes.hosts[0]
                try await BumblePeer.withPeer(
                    "gatt-server", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("server.log"),
                    arguments: ["--name", "bp-bumble", "--notify-bytes", "\(TestService.bulk)", "--indicate"]) { server in
                    _ = try await server.next(event: "ready", within: .seconds(15))
                    let connection = try await connectToAdvertiser(named: "bp-bumble", from: host)
                    let client = host.gattClient(for: connection)
                    let notifications = await host.notifications(on: connection)

                    #expect(try await client.exchangeMTU(247) == 247)
                    let services = try await client.discoverPrimaryServices()
                    #expect(services.map(\.uuid).contains(.genericAccessService))
                    let service = try #require(services.first { $0.uuid == TestService.service }, "\(services)")
                    let characteristics = try await client.discoverCharacteristics(of: service)
                    let notify = try #require(characteristics.first { $0.uuid == TestService.notify })
                    let write = try #require(characteristics.first { $0.uuid == TestService.write })
                    let read = try #require(characteristics.first { $0.uuid == TestService.read })
                    let descriptors = try await client.discoverDescriptors(of: notify)
                    let cccd = try #require(descriptors.first { $0.uuid == .clientCharacteristicConfiguration })

                    #expect(try await client.read(handle: read.valueHandle) == pattern(300), "long read through Read Blob")
                    try await client.write(handle: cccd.handle, value: [0x03, 0x00])  // notifications and indications
                    try await client.write(handle: write.valueHandle, value: [0xC0, 0xFF, 0xEE, 0x01])
                    try await client.writeWithoutResponse(handle: write.valueHandle, value: [0xC0, 0xFF, 0xEE, 0x02])

                    let valueHandle = notify.valueHandle
                    let (received, indication) = try await withTimeout(.seconds(60), what: "100 KB of notifications and an indication") {
                        var received: [UInt8] = []
                        var indication: [UInt8]?
                        for await notification in notifications where notification.handle == valueHandle {
                            if notification.isIndication { indication = notification.value } else { received += notification.value }
                            if received.count >= TestService.bulk && indication != nil { break }
                        }
                        return (received, indication)
                    }
                    #expect(received == pattern(TestService.bulk))
                    #expect(indication == Array(0..<20))
                    let written = try await server.next(event: "written", within: .seconds(5)) { $0.bool("with_response") == true }
                    #expect(written.string("value") == "c0ffee01")
                    let command = try await server.next(event: "written", within: .seconds(5)) { $0.bool("with_response") == false }
                    #expect(command.string("value") == "c0ffee02")
                    try await client.unsubscribe(notify)
                    try await host.disconnect(connection)
                }
                #expect(await nodes.violations() == [[]])
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btatt.opcode == 0x0d")
        }

        // MARK: LE credit-based channel

        @Test("btvirt: an LE credit-based channel to Bumble carries 100 KB each way",
              .requires(.bumble, .btvirt, .preload, .tshark), .timeLimit(.minutes(3)))
        func channelBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload, .tshark)
            try await channel(.btvirt)
        }

        @Test("Rootcanal: an LE credit-based channel to Bumble carries 100 KB each way",
              .requires(.bumble, .rootcanal, .preload, .tshark), .timeLimit(.minutes(3)))
        func channelRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload, .tshark)
            try await channel(.rootcanal)
        }

        private func channel(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("interop-l2cap-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, count: 1, in: folder) { nodes in
                let host = nodes.hosts[0]
                try await BumblePeer.withPeer(
                    "l2cap-server", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("l2cap.log"),
                    arguments: ["--name", "bp-l2cap", "--spsm", "0x0080", "--bytes", "\(TestService.bulk)"]) { server in
                    _ = try await server.next(event: "ready", within: .seconds(15))
                    let connection = try await connectToAdvertiser(named: "bp-l2cap", from: host)
                    let channel = try await host.openChannel(on: connection, spsm: TestService.spsm)
                    let inbound = await host.incomingSDUs(on: channel)

                    // Out: SDUs of the peer's MTU, segmented into K-frames by credits.
                    let outbound = pattern(TestService.bulk)
                    var offset = 0
                    while offset < outbound.count {
                        let end = min(offset + Int(channel.remote.mtu), outbound.count)
                        try await host.send(Array(outbound[offset..<end]), on: channel)
                        offset = end
                    }
                    let arrived = try await server.next(event: "received", within: .seconds(60))
                    #expect(arrived.int("bytes") == TestService.bulk && arrived.bool("pattern_ok") == true, "\(arrived)")

                    // Back: the server sends the same pattern.
                    let received = try await withTimeout(.seconds(60), what: "100 KB back on the channel") {
                        var received: [UInt8] = []
                        for await sdu in inbound {
                            received += sdu
                            if received.count >= TestService.bulk { break }
                        }
                        return received
                    }
                    #expect(received == outbound)
                    _ = try await server.next(event: "done", within: .seconds(10))
                    try await host.disconnect(connection)
                }
                #expect(await nodes.violations() == [[]])
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btl2cap.cid >= 0x0040")
        }
    }
}

/// Scans until an advertiser with `name` shows up, then connects to it.
func connectToAdvertiser(named name: String, from host: LEHost) async throws -> LEConnection {
    let devices = try await host.discover()
    let device = try await firstValue(of: devices, within: .seconds(10), "an advertiser named \(name)") {
        $0.name == name ? $0 : nil
    }
    return try await host.connect(to: device.address, type: device.addressType)
}

/// Our side's capture: readable, uncut, no malformed frame, and tshark's display `filter` for
/// the protocol the test exercised matches at least one frame.
func checkOurCapture(_ path: String, decodes filter: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let file = try CaptureReader.read(path: path)
    try checkCapture(path, expectedCount: file.records.count, sourceLocation: sourceLocation)
    let tshark = try RequiredComponent.require(.tshark)[0]
    #expect(try !frameNumbers(tshark, path, filter: filter).isEmpty, "tshark finds no \(filter) in \(path)",
            sourceLocation: sourceLocation)
}
