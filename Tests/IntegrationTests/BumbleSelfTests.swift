import BlueproofBackend
import BlueproofTestSupport
import Foundation
import Testing

/// Bumble against Bumble, on controllers our backends start: the proof that the peer driver
/// (`Bumble/peer.py` through ``BumblePeer``) is right before our own stack is put against it.
extension Integration {
    @Suite("Bumble self tests")
    struct BumbleSelfTests {
        static let service = "7B5C0001-2F3A-4E0B-9E43-52A0C6B1D000"
        static let notifyCharacteristic = "7B5C0002-2F3A-4E0B-9E43-52A0C6B1D000"
        static let writeCharacteristic = "7B5C0003-2F3A-4E0B-9E43-52A0C6B1D000"
        static let readCharacteristic = "7B5C0004-2F3A-4E0B-9E43-52A0C6B1D000"
        static let bulk = 102_400

        // MARK: GATT

        @Test("GATT over btvirt: discovery, long read, writes, 100 KB of notifications and an indication",
              .requires(.bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func gattBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload)
            try await gatt(.btvirt)
        }

        @Test("GATT over Rootcanal: discovery, long read, writes, 100 KB of notifications and an indication",
              .requires(.bumble, .rootcanal, .preload), .timeLimit(.minutes(3)))
        func gattRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload)
            try await gatt(.rootcanal)
        }

        private func gatt(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("bumble-gatt")
            defer { folder.cleanUp() }
            try await withBackend(spec, in: folder.path) { backend in
                let transport = try BumblePeer.transport(for: backend)
                try await BumblePeer.withPeer("gatt-server", transport: transport, log: folder.file("server.log"),
                                              arguments: ["--name", "bp-gatt", "--notify-bytes", "\(Self.bulk)", "--indicate"]) { server in
                    let ready = try await server.next(event: "ready", within: .seconds(15))
                    let address = try #require(ready.string("address"))
                    #expect(ready.string("address_type") == "random")
                    #expect(ready.string("service") == Self.service)

                    try await BumblePeer.withPeer("gatt-central", transport: transport, log: folder.file("central.log"),
                                                  arguments: ["--peer", address, "--peer-type", "random", "--mtu", "247",
                                                              "--expect-bytes", "\(Self.bulk)", "--indicate"]) { central in
                        try await checkCentral(central, server: address)
                        try await checkServer(server, central: central)
                    }
                }
            }
        }

        private func checkCentral(_ central: BumblePeer, server address: String) async throws {
            _ = try await central.next(event: "ready", within: .seconds(15))
            let connected = try await central.next(event: "connected", within: .seconds(15))
            #expect(connected.string("peer") == address)
            #expect(try await central.next(event: "mtu", within: .seconds(10)).int("mtu") == 247)

            let services = try #require(try await central.next(event: "services", within: .seconds(10))["services"]?.array)
            let ours = try #require(services.first { $0["uuid"]?.string == Self.service })
            let characteristics = try #require(ours["characteristics"]?.array)
            let properties = Dictionary(uniqueKeysWithValues: characteristics.compactMap { characteristic in
                characteristic["uuid"]?.string.flatMap { uuid in characteristic["properties"]?.int.map { (uuid, $0) } }
            })
            #expect(properties == [Self.notifyCharacteristic: 0x30, Self.writeCharacteristic: 0x0C,
                                   Self.readCharacteristic: 0x02])
            let notify = try #require(characteristics.first { $0["uuid"]?.string == Self.notifyCharacteristic })
            #expect(notify["descriptors"]?.array?.contains { $0["uuid"]?.string == "2902" } == true, "CCCD")

            let read = try await central.next(event: "read", within: .seconds(10))
            #expect(read.int("bytes") == 300)
            #expect(read.bool("pattern_ok") == true)

            let received = try await central.next(event: "received", within: .seconds(30))
            #expect(received.int("bytes") == Self.bulk)
            #expect(received.bool("pattern_ok") == true)
            let indication = try await central.next(event: "indication", within: .seconds(10))
            #expect(indication.string("value") == "000102030405060708090a0b0c0d0e0f10111213")
            _ = try await central.next(event: "done", within: .seconds(10))
            #expect(try await central.exit(within: .seconds(10)) == .exited(0))
        }

        private func checkServer(_ server: BumblePeer, central: BumblePeer) async throws {
            let centralAddress = central.history.first { $0.name == "ready" }?.string("address")
            let connected = try await server.next(event: "connected", within: .seconds(5))
            #expect(connected.string("peer") == centralAddress)
            #expect(connected.string("role") == "peripheral")
            #expect(try await server.next(event: "mtu", within: .seconds(5)).int("mtu") == 247)
            let subscribed = try await server.next(event: "subscribed", within: .seconds(5))
            #expect(subscribed.bool("notify") == true && subscribed.bool("indicate") == true)

            let withResponse = try await server.next(event: "written", within: .seconds(5)) { $0.bool("with_response") == true }
            #expect(withResponse.string("value") == "c0ffee01")
            let withoutResponse = try await server.next(event: "written", within: .seconds(5)) { $0.bool("with_response") == false }
            #expect(withoutResponse.string("value") == "c0ffee02")

            let notified = try await server.next(event: "notified", within: .seconds(5))
            #expect(notified.int("bytes") == Self.bulk)
            // The notifications the server sent are the ones the central received.
            let received = central.history.first { $0.name == "received" }
            #expect(notified.string("sha256") != nil && notified.string("sha256") == received?.string("sha256"))
            _ = try await server.next(event: "indicated", within: .seconds(5))

            let unsubscribed = try await server.next(event: "subscribed", within: .seconds(5))
            #expect(unsubscribed.bool("notify") == false && unsubscribed.bool("indicate") == false)
            _ = try await server.next(event: "disconnected", within: .seconds(5))
        }

        // MARK: L2CAP

        @Test("LE credit-based channel over btvirt: 100 KB each way, intact",
              .requires(.bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func l2capBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload)
            try await l2cap(.btvirt)
        }

        @Test("LE credit-based channel over Rootcanal: 100 KB each way, intact",
              .requires(.bumble, .rootcanal, .preload), .timeLimit(.minutes(3)))
        func l2capRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload)
            try await l2cap(.rootcanal)
        }

        private func l2cap(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("bumble-l2cap")
            defer { folder.cleanUp() }
            try await withBackend(spec, in: folder.path) { backend in
                let transport = try BumblePeer.transport(for: backend)
                try await BumblePeer.withPeer("l2cap-server", transport: transport, log: folder.file("server.log"),
                                              arguments: ["--name", "bp-l2cap", "--spsm", "0x0080", "--bytes", "\(Self.bulk)"]) { server in
                    let ready = try await server.next(event: "ready", within: .seconds(15))
                    #expect(ready.int("spsm") == 0x80)
                    let address = try #require(ready.string("address"))

                    try await BumblePeer.withPeer("l2cap-client", transport: transport, log: folder.file("client.log"),
                                                  arguments: ["--peer", address, "--peer-type", "random", "--spsm", "0x0080",
                                                              "--bytes", "\(Self.bulk)"]) { client in
                        let channel = try await client.next(event: "channel", within: .seconds(15))
                        #expect(channel.int("spsm") == 0x80)
                        let clientSent = try await client.next(event: "sent", within: .seconds(30))
                        let serverReceived = try await server.next(event: "received", within: .seconds(30))
                        #expect(serverReceived.int("bytes") == Self.bulk)
                        #expect(serverReceived.bool("pattern_ok") == true)
                        #expect(serverReceived.int("extra") == 0)
                        #expect(serverReceived.string("sha256") == clientSent.string("sha256"))

                        let serverSent = try await server.next(event: "sent", within: .seconds(30))
                        let clientReceived = try await client.next(event: "received", within: .seconds(30))
                        #expect(clientReceived.int("bytes") == Self.bulk)
                        #expect(clientReceived.bool("pattern_ok") == true)
                        #expect(clientReceived.int("extra") == 0)
                        #expect(clientReceived.string("sha256") == serverSent.string("sha256"))

                        _ = try await client.next(event: "done", within: .seconds(10))
                        #expect(try await client.exit(within: .seconds(10)) == .exited(0))
                        _ = try await server.next(event: "done", within: .seconds(10))
                        #expect(try await server.exit(within: .seconds(10)) == .exited(0), "the server ends with the link")
                    }
                }
            }
        }

        // MARK: Advertising

        @Test("advertising over btvirt: name, 16- and 128-bit services and an iBeacon seen by a scanner",
              .requires(.bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func advertisingBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload)
            try await advertising(.btvirt)
        }

        @Test("advertising over Rootcanal: name, 16- and 128-bit services and an iBeacon seen by a scanner",
              .requires(.bumble, .rootcanal, .preload), .timeLimit(.minutes(3)))
        func advertisingRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload)
            try await advertising(.rootcanal)
        }

        private func advertising(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("bumble-adv")
            defer { folder.cleanUp() }
            let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
            try await withBackend(spec, in: folder.path) { backend in
                let transport = try BumblePeer.transport(for: backend)
                try await BumblePeer.withPeer("advertise", transport: transport, log: folder.file("advertiser.log"),
                                              arguments: ["--name", "bp-adv", "--service", "180D", "--service", Self.service,
                                                          "--ibeacon", "\(beacon):258:772:-59"]) { advertiser in
                    let ready = try await advertiser.next(event: "ready", within: .seconds(15))
                    let address = try #require(ready.string("address"))

                    try await BumblePeer.withPeer("scan", transport: transport, log: folder.file("scanner.log"),
                                                  arguments: ["--filter-name", "bp-adv", "--count", "1", "--duration", "20"]) { scanner in
                        let seen = try await scanner.next(event: "advertisement", within: .seconds(25))
                        #expect(seen.string("address") == address)
                        #expect(seen.string("address_type") == "random")
                        #expect(seen.bool("connectable") == true)
                        #expect(seen.int("flags") == 0x06)
                        #expect(Set(seen["services"]?.array?.compactMap(\.string) ?? []) == ["180D", Self.service])
                        let ibeacon = try #require(seen["ibeacon"])
                        #expect(ibeacon["uuid"]?.string == beacon)
                        #expect(ibeacon["major"]?.int == 258 && ibeacon["minor"]?.int == 772 && ibeacon["power"]?.int == -59)
                        // Advertising data and scan response together, byte for byte.
                        #expect(seen.string("data") == (ready.string("advertising_data") ?? "") + (ready.string("scan_response_data") ?? ""))
                        _ = try await scanner.next(event: "done", within: .seconds(10))
                        #expect(try await scanner.exit(within: .seconds(10)) == .exited(0))
                    }
                }
            }
        }

        // MARK: The helper itself

        @Test("a peer that fails says why: its error event and log tail, and exit status 1",
              .requires(.bumble), .timeLimit(.minutes(3)))
        func peerFailure() async throws {
            try RequiredComponent.require(.bumble)
            let folder = try WorkFolder("bumble-fail")
            defer { folder.cleanUp() }
            let peer = try BumblePeer.start("scan", transport: "unix:\(folder.file("nothing-here"))", log: folder.file("peer.log"))
            let error = await #expect(throws: BumblePeerError.self) {
                try await peer.next(event: "ready", within: .seconds(15))
            }
            #expect(error?.message.contains("cannot open transport") == true, "\(String(describing: error))")
            #expect(try await peer.exit(within: .seconds(10)) == .exited(1))
        }
    }
}
