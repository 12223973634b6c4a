import BlueproofAsync
import BlueproofBackend
import BlueproofHost
import BlueproofTestSupport
import BlueproofTransfer
import BlueproofWire
import Testing

/// The transfer sample's roles against Bumble playing the other one (peer.py's
/// `transfer-central` and `transfer-peripheral`): an independent stack reassembles our
/// peripheral's payload, and our central reassembles Bumble's, byte-exact.
extension Integration {
    @Suite("Transfer interop with Bumble")
    struct TransferInteropTests {
        static let size = 100_000

        @Test("btvirt: a Bumble central receives our peripheral's payload", .requires(.bumble, .btvirt, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumbleCentralBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload, .tshark)
            try await bumbleCentral(.btvirt)
        }

        @Test("Rootcanal: a Bumble central receives our peripheral's payload", .requires(.bumble, .rootcanal, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumbleCentralRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload, .tshark)
            try await bumbleCentral(.rootcanal)
        }

        private func bumbleCentral(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("transfer-bumble-central-\(spec)")
            defer { folder.cleanUp() }
            // "EOM" inside and as the last 3 bytes.
            let payload = Array("EOM".utf8) + pattern(Self.size - 6) + Array("EOM".utf8)
            try await withHosts(spec, count: 1, in: folder) { nodes in
                let peripheral = TransferPeripheral(host: nodes.hosts[0], profile: openGateProfile()).run(.send(payload))
                let events = EventLog<TransferEvent>()
                try await BumblePeer.withPeer(
                    "transfer-central", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("central.log"),
                    arguments: ["--allow-unavailable-rssi", "--min-rssi", "-127", "--mtu", "247", "--reply", "thanks"]) { central in
                    let outcome = await peripheral.outcome { events.record($0) }
                    let sent = try outcome.get()
                    #expect(sent.chunkSize == 244 && sent.largestChunk == 244)
                    let received = try await central.next(event: "received", within: .seconds(30))
                    #expect(received.int("bytes") == payload.count)
                    #expect(received.string("sha256") == SHA256.hex(payload), "\(received)")
                    #expect(received.int("largest_chunk") == 244)
                    #expect(sent.reply == Array("thanks".utf8), "the write-back reached our peripheral")
                    // Our peripheral stayed until the central turned notifications off and left
                    // (issue 14: it used to end at the write-back and the central hung).
                    _ = try await central.next(event: "unsubscribed", within: .seconds(10))
                    #expect(events.events.contains(.unsubscribed), "\(events.events)")
                    #expect(events.events.contains(.disconnected(reason: .remoteUserTerminated)), "\(events.events)")
                    _ = try await central.next(event: "done", within: .seconds(10))
                }
                #expect(await noConnections(nodes.hosts[0]))
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btatt.opcode == 0x1b")
        }

        @Test("btvirt: our central receives a Bumble peripheral's payload", .requires(.bumble, .btvirt, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumblePeripheralBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload, .tshark)
            try await bumblePeripheral(.btvirt)
        }

        @Test("Rootcanal: our central receives a Bumble peripheral's payload", .requires(.bumble, .rootcanal, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func bumblePeripheralRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload, .tshark)
            try await bumblePeripheral(.rootcanal)
        }

        private func bumblePeripheral(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("transfer-bumble-peripheral-\(spec)")
            defer { folder.cleanUp() }
            try await withHosts(spec, count: 1, in: folder) { nodes in
                try await BumblePeer.withPeer(
                    "transfer-peripheral", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("peripheral.log"),
                    arguments: ["--bytes", "\(Self.size)"]) { peripheral in
                    _ = try await peripheral.next(event: "ready", within: .seconds(15))
                    let outcome = await TransferCentral(host: nodes.hosts[0], profile: openGateProfile(mtu: 185))
                        .run(.receive(reply: .bytes(Array("thanks".utf8)))).outcome()
                    let received = try outcome.get()
                    #expect(received.payload == pattern(Self.size))
                    #expect(received.largestChunk == 182)
                    let sent = try await peripheral.next(event: "sent", within: .seconds(10))
                    #expect(sent.string("sha256") == received.sha256)
                    let written = try await peripheral.next(event: "written", within: .seconds(10))
                    #expect(written.string("value") == hex(Array("thanks".utf8)))
                    let unsubscribed = try await peripheral.next(event: "subscribed", within: .seconds(10)) { $0.bool("notify") == false }
                    #expect(unsubscribed.bool("notify") == false, "our central unsubscribed before disconnecting")
                }
                #expect(await noConnections(nodes.hosts[0]))
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btatt.opcode == 0x1b")
        }

        @Test("btvirt: a Bumble central that leaves mid-transfer fails our peripheral at once, naming only what left",
              .requires(.bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func centralLeavesBTVirt() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload)
            try await centralLeaves(.btvirt)
        }

        @Test("Rootcanal: a Bumble central that leaves mid-transfer fails our peripheral at once, naming only what left",
              .requires(.bumble, .rootcanal, .preload), .timeLimit(.minutes(3)))
        func centralLeavesRootcanal() async throws {
            try RequiredComponent.require(.bumble, .rootcanal, .preload)
            try await centralLeaves(.rootcanal)
        }

        /// Issue 14: a peripheral that counted chunks as sent when handed to the controller
        /// reported the whole payload after the central had left at 60 %, once --timeout ran out.
        private func centralLeaves(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("transfer-bumble-leaves-\(spec)")
            defer { folder.cleanUp() }
            let payload = pattern(300_000)
            try await withHosts(spec, count: 1, in: folder) { nodes in
                let stream = TransferPeripheral(host: nodes.hosts[0], profile: openGateProfile()).run(.send(payload))
                let peripheral = Task { await stream.outcome() }
                defer { peripheral.cancel() }
                try await BumblePeer.withPeer(
                    "transfer-central", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("central.log"),
                    arguments: ["--allow-unavailable-rssi", "--min-rssi", "-127", "--disconnect-after", "100000"]) { central in
                    let leaving = try await central.next(event: "leaving", within: .seconds(30))
                    let received = try #require(leaving.int("bytes"))
                    // At once: with the disconnection, not at a timeout (the profile's are 30 s).
                    let outcome = try await withTimeout(.seconds(5), what: "our peripheral's outcome once the central left") {
                        await peripheral.value
                    }
                    guard case let .failure(.disconnected(_, bytes)) = outcome else {
                        Issue.record("the peripheral did not fail with the disconnection: \(outcome)")
                        return
                    }
                    #expect(bytes < payload.count && bytes % 512 == 0, "\(bytes) bytes")
                    #expect(bytes >= received, "the central had \(received) bytes; the controller completed \(bytes)")
                    _ = try await central.next(event: "done", within: .seconds(10))
                }
            }
        }

        @Test("btvirt: a Bumble central's 514-byte write-back is refused as ATT requires, and said",
              .requires(.bumble, .btvirt, .preload), .timeLimit(.minutes(3)))
        func oversizeWriteBack() async throws {
            try RequiredComponent.require(.bumble, .btvirt, .preload)
            let folder = try WorkFolder("transfer-bumble-514")
            defer { folder.cleanUp() }
            let long = String(repeating: "x", count: 514)
            try await withHosts(.btvirt, count: 1, in: folder) { nodes in
                for writeRequest in [false, true] {
                    let events = EventLog<TransferEvent>()
                    let stream = TransferPeripheral(host: nodes.hosts[0], profile: openGateProfile()).run(.send(pattern(1000)))
                    let peripheral = Task { await stream.outcome { events.record($0) } }
                    try await BumblePeer.withPeer(
                        "transfer-central", transport: try BumblePeer.transport(for: nodes.backend), log: folder.file("central-\(writeRequest).log"),
                        arguments: ["--allow-unavailable-rssi", "--min-rssi", "-127", "--reply", long]
                            + (writeRequest ? ["--write-request"] : [])) { central in
                        if writeRequest {
                            // The characteristic takes Write Commands only (the sample's properties).
                            let refused = try await central.next(event: "write refused", within: .seconds(30))
                            #expect(refused.int("error") == 0x03, "Write Not Permitted: \(refused)")
                        }
                        _ = try await central.next(event: "done", within: .seconds(30))
                    }
                    let sent = try await peripheral.value.get()
                    #expect(sent.reply == nil)
                    let code: ATTErrorCode = writeRequest ? .writeNotPermitted : .invalidAttributeValueLength
                    #expect(events.events.contains(.writeRefused(length: 514, withResponse: writeRequest, error: code)), "\(events.events)")
                }
            }
        }
    }
}
