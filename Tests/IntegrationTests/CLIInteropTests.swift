import BlueproofAsync
import BlueproofBackend
import BlueproofTestSupport
import BlueproofWire
import Foundation
import Testing

/// The `blueproof` executable against Google's Bumble on one shared virtual controller: the
/// backend is started here, the Bumble peer joins it, and the CLI joins it too through
/// `--controller unix:…` (btvirt) or `--controller tcp:…` (Rootcanal), the endpoint
/// `sharedEndpoint` names.
extension Integration {
    @Suite("CLI interop with Bumble")
    struct CLIInteropTests {
        static let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

        // MARK: scan

        @Test("scan on btvirt: a Bumble advertiser's name, 16- and 128-bit services, iBeacon id, RSSI n/a",
              .requires(.cli, .bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func scanSeesBumble() async throws {
            let cli = try RequiredComponent.require(.cli, .bumble, .btvirt, .preload)[0]
            let folder = try WorkFolder("cli-scan")
            defer { folder.cleanUp() }
            try await withBackend(.btvirt, in: folder.path) { backend in
                let controller = try sharedController(of: backend)
                try await BumblePeer.withPeer(
                    "advertise", transport: try BumblePeer.transport(for: backend), log: folder.file("advertiser.log"),
                    arguments: ["--name", "bp-adv", "--service", "180D", "--service", TestService.service.description,
                                "--ibeacon", "\(Self.beacon):258:772:-59"]) { advertiser in
                    let ready = try await advertiser.next(event: "ready", within: .seconds(15))
                    let address = try #require(ready.string("address"))

                    let scan = try await LiveCLI.run(cli, ["scan", "--controller", controller, "--json", "--duration", "3"])
                    #expect(scan.status == 0, "stderr: \(scan.stderr)")
                    let lines = try jsonLines(scan.stdout)
                    // One line per change: the last one about the advertiser holds everything learnt.
                    let device = try #require(lines.last { $0["address"] as? String == address },
                                              "no line for \(address) in: \(scan.stdout)\nstderr: \(scan.stderr)")
                    #expect(device["addressType"] as? String == "random")
                    #expect(device["name"] as? String == "bp-adv")
                    #expect(device["connectable"] as? Bool == true)
                    #expect(Set(device["services"] as? [String] ?? []) == ["180D", TestService.service.description])
                    let beacon = try #require(device["iBeacon"] as? [String: Any], "\(device)")
                    #expect(beacon["id"] as? String == "\(Self.beacon).Maj:258.Min:772")
                    #expect(beacon["measuredPower"] as? Int == -59)
                    // btvirt reports RSSI 127, "not available": null, and the key is there.
                    #expect(device.keys.contains("rssi") && device["rssi"] is NSNull, "\(device)")

                    let table = try await LiveCLI.run(cli, ["scan", "--controller", controller, "--duration", "3"])
                    #expect(table.status == 0, "stderr: \(table.stderr)")
                    let row = try #require(table.stdout.split(separator: "\n").last { $0.hasPrefix(address) },
                                           "no row for \(address) in: \(table.stdout)")
                    #expect(row.contains(" n/a ") && row.contains("bp-adv") && row.contains("180D"), "\(row)")
                    #expect(row.contains("iBeacon \(Self.beacon).Maj:258.Min:772"), "\(row)")
                }
            }
        }

        // MARK: gatt

        @Test("gatt on btvirt against a Bumble server: long read, both writes, three notifications",
              .requires(.cli, .bumble, .btvirt, .preload, .tshark), .timeLimit(.minutes(3)))
        func gattBTVirt() async throws {
            let cli = try RequiredComponent.require(.cli, .bumble, .btvirt, .preload, .tshark)[0]
            try await gatt(.btvirt, cli: cli)
        }

        @Test("gatt on Rootcanal against a Bumble server: long read, both writes, three notifications",
              .requires(.cli, .bumble, .rootcanal, .preload, .tshark), .timeLimit(.minutes(3)))
        func gattRootcanal() async throws {
            let cli = try RequiredComponent.require(.cli, .bumble, .rootcanal, .preload, .tshark)[0]
            try await gatt(.rootcanal, cli: cli)
        }

        private func gatt(_ spec: BackendSpec, cli: String) async throws {
            let folder = try WorkFolder("cli-gatt")
            defer { folder.cleanUp() }
            try await withBackend(spec, in: folder.path) { backend in
                let controller = try sharedController(of: backend)
                // 200 bytes in 20-byte notifications: ten come, --count 3 takes three.
                try await BumblePeer.withPeer(
                    "gatt-server", transport: try BumblePeer.transport(for: backend), log: folder.file("server.log"),
                    arguments: ["--name", "bp-x", "--notify-bytes", "200"]) { server in
                    let ready = try await server.next(event: "ready", within: .seconds(15))
                    let address = try #require(ready.string("address"))

                    let result = try await LiveCLI.run(cli, [
                        "gatt", "--controller", controller, "--name", "bp-x", "--capture", folder.file("gatt.pcap"),
                        "--read", TestService.read.description,
                        "--write", "\(TestService.write)=c0ffee01", "--write-command", "\(TestService.write)=c0ffee02",
                        "--subscribe", TestService.notify.description, "--count", "3", "--json"])
                    #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
                    let events = try jsonLines(result.stdout)
                    let names = events.compactMap { $0["event"] as? String }
                    #expect(names == ["connected", "read", "write", "write", "subscribed",
                                      "notification", "notification", "notification", "unsubscribed", "disconnected"],
                            "\(result.stdout)")

                    let connected = try #require(events.first { $0["event"] as? String == "connected" })
                    #expect(connected["peer"] as? String == address && connected["peerType"] as? String == "random")

                    let read = try #require(events.first { $0["event"] as? String == "read" })
                    #expect(read["uuid"] as? String == TestService.read.description)
                    #expect(read["length"] as? Int == 300)
                    #expect(read["value"] as? String == hex(pattern(300)), "the 300-byte pattern, through Read Blob")

                    let writes = events.filter { $0["event"] as? String == "write" }
                    #expect(writes.map { $0["value"] as? String } == ["c0ffee01", "c0ffee02"])
                    #expect(writes.map { $0["withResponse"] as? Bool } == [true, false])

                    let notifications = events.filter { $0["event"] as? String == "notification" }
                    #expect(notifications.map { $0["value"] as? String }
                            == [hex(pattern(20)), hex(pattern(20, from: 20)), hex(pattern(20, from: 40))])
                    #expect(notifications.allSatisfy { $0["uuid"] as? String == TestService.notify.description
                                                       && $0["indication"] as? Bool == false })

                    #expect(events.last?["initiator"] as? String == "local", "we disconnect at the end")

                    // What Bumble's server saw.
                    let written = try await server.next(event: "written", within: .seconds(5)) { $0.bool("with_response") == true }
                    #expect(written.string("value") == "c0ffee01")
                    let command = try await server.next(event: "written", within: .seconds(5)) { $0.bool("with_response") == false }
                    #expect(command.string("value") == "c0ffee02")
                    let subscribed = try await server.next(event: "subscribed", within: .seconds(5)) { $0.bool("notify") == true }
                    #expect(subscribed.string("characteristic") == TestService.notify.description)
                    let unsubscribed = try await server.next(event: "subscribed", within: .seconds(5)) { $0.bool("notify") == false }
                    #expect(unsubscribed.bool("indicate") == false)
                    _ = try await server.next(event: "disconnected", within: .seconds(5))
                }
            }
            try checkOurCapture(folder.file("gatt.pcap"), decodes: "btatt.opcode == 0x1b")
        }

        // MARK: advertise

        @Test("advertise on btvirt: a Bumble scanner sees the name and service",
              .requires(.cli, .bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func advertiseSeenByBumble() async throws {
            let cli = try RequiredComponent.require(.cli, .bumble, .btvirt, .preload)[0]
            let folder = try WorkFolder("cli-adv")
            defer { folder.cleanUp() }
            try await withBackend(.btvirt, in: folder.path) { backend in
                let controller = try sharedController(of: backend)
                let advertiser = try LiveCLI(cli, ["advertise", "--controller", controller, "--name", "bp-adv",
                                                   "--service", "180D", "--duration", "10", "--json"])
                defer { advertiser.stop() }
                let first = try #require(await advertiser.line(within: .seconds(20)) { $0.hasPrefix("{") },
                                         "no JSON line; stderr: \(advertiser.stderr)")
                let event = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any], "\(first)")
                #expect(event["event"] as? String == "advertising", "the first line: \(first)")
                let address = try #require(event["address"] as? String)

                try await BumblePeer.withPeer("scan", transport: try BumblePeer.transport(for: backend),
                                              log: folder.file("scanner.log"),
                                              arguments: ["--filter-name", "bp-adv", "--count", "1", "--duration", "20"]) { scanner in
                    let seen = try await scanner.next(event: "advertisement", within: .seconds(25))
                    #expect(seen.string("address") == address)
                    #expect(seen.string("address_type") == "public")
                    #expect(seen.bool("connectable") == true)
                    #expect(seen.string("name") == "bp-adv")
                    #expect(seen["services"]?.array?.compactMap(\.string) == ["180D"])
                    #expect(seen.string("data") == (event["data"] as? String ?? "") + (event["scanResponse"] as? String ?? ""))
                }
                let status = await advertiser.exit(within: .seconds(20))
                #expect(status == 0, "stderr: \(advertiser.stderr)")
            }
        }

        // MARK: errors

        @Test("gatt to an absent peer exits 3 naming the peer and the limit",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func gattAbsentPeer() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("cli-absent")
            defer { folder.cleanUp() }
            try await withBackend(.btvirt, in: folder.path) { backend in
                let result = try await LiveCLI.run(cli, ["gatt", "--controller", try sharedController(of: backend),
                                                    "--peer", "00:11:22:33:44:55", "--connect-timeout", "0.5"])
                #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
                #expect(result.stderr.contains("cannot connect to 00:11:22:33:44:55"), "stderr: \(result.stderr)")
                // btvirt refuses a connection to an address nobody advertises at once
                // (Connection Failed to be Established); a controller that keeps trying is
                // cancelled after the limit.
                #expect(result.stderr.contains("Connection Failed to be Established")
                        || result.stderr.contains("within 0.5 seconds"), "stderr: \(result.stderr)")
                #expect(!result.stdout.contains("connected"), "stdout: \(result.stdout)")
            }
        }

        @Test("gatt --read nonsense is a usage error: exit 2 and the accepted forms", .requires(.cli))
        func gattBadTarget() async throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let result = try await LiveCLI.run(cli, ["gatt", "--peer", "00:11:22:33:44:55", "--read", "nonsense"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("nonsense") && result.stderr.contains("0x0012"), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        @Test("advertise with a name that fits neither PDU is a usage error naming the 31-byte limit", .requires(.cli))
        func advertiseNameTooLong() async throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let name = String(repeating: "n", count: 30)  // 32 bytes as an AD structure
            let result = try await LiveCLI.run(cli, ["advertise", "--name", name])
            #expect(result.status == 2)
            #expect(result.stderr.contains("at most 31"), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}

// MARK: - Running the CLI

/// The `--controller` value that reaches the same backend: btvirt's socket or Rootcanal's port.
func sharedController(of backend: any ControllerBackend) throws -> String {
    guard let endpoint = backend.sharedEndpoint else {
        throw BumblePeerError(message: "backend \(backend.name) cannot be shared with the CLI")
    }
    return endpoint.description
}

/// Every line of `text` as a JSON object.
func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BumblePeerError(message: "not a JSON object: \(line)")
        }
        return object
    }
}

