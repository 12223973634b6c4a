import BlueproofAsync
import BlueproofBackend
import BlueproofHost
import BlueproofTestSupport
import BlueproofTransfer
import BlueproofWire
import Synchronization
import Testing

/// The sample's transfer (docs/corebluetooth-transfer-sample.md) between two of our own nodes:
/// 1 MB byte-exact each way with captures tshark decodes, chunk sizes following the MTU, role
/// swap, the RSSI gate on a controller without RSSI, and cleanup when the link breaks.
extension Integration {
    @Suite("Transfer")
    struct TransferTests {
        static let megabyte = 1_000_000

        /// 1 MB with "EOM" as its last 3 bytes (the framing's hard case).
        static func payload(_ count: Int) -> [UInt8] { pattern(count - 3) + Array("EOM".utf8) }

        @Test("btvirt: 1 MB each way byte-exact, roles swapped, captures decode", .requires(.btvirt, .preload, .tshark),
              .timeLimit(.minutes(4)))
        func megabyteBTVirt() async throws {
            try RequiredComponent.require(.btvirt, .preload, .tshark)
            try await megabyte(.btvirt)
        }

        @Test("Rootcanal: 1 MB each way byte-exact, roles swapped, captures decode", .requires(.rootcanal, .preload, .tshark),
              .timeLimit(.minutes(4)))
        func megabyteRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload, .tshark)
            try await megabyte(.rootcanal)
        }

        private func megabyte(_ spec: BackendSpec) async throws {
            let folder = try WorkFolder("transfer-\(spec)")
            defer { folder.cleanUp() }
            let payload = Self.payload(Self.megabyte)
            try await withHosts(spec, in: folder) { nodes in
                let (a, b) = (nodes.hosts[0], nodes.hosts[1])
                // The sample's direction: a notifies, b receives and writes back.
                let forward = await runTransfer(peripheral: a, .send(payload), central: b, .receive(reply: .echoPrefix))
                let received = try forward.central.get()
                #expect(received.payload == payload)
                #expect(received.sha256 == SHA256.hex(payload))
                let sent = try forward.peripheral.get()
                #expect(sent.reply == Array(payload.prefix(sent.chunkSize)), "the write-back arrived")
                #expect(await noConnections(a, b))

                // Roles swapped: b is the peripheral now.
                let small = Array("EOM".utf8) + pattern(5000) + Array("EOM".utf8)
                let swapped = await runTransfer(peripheral: b, .send(small), central: a, .receive(reply: .bytes(Array("thanks".utf8))))
                #expect(try swapped.central.get().payload == small)
                #expect(try swapped.peripheral.get().reply == Array("thanks".utf8))

                // Reversed: the central (b) writes 1 MB to the peripheral (a).
                let reverse = await runTransfer(peripheral: a, .receive(reply: .bytes(Array("got it".utf8))), central: b, .send(payload))
                #expect(try reverse.peripheral.get().payload == payload)
                #expect(try reverse.central.get().reply == Array("got it".utf8))
                #expect(await noConnections(a, b))
                #expect(await nodes.violations() == [[], []])
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btatt.opcode == 0x1b")
            try checkOurCapture(folder.file("node1.pcap"), decodes: "btatt.opcode == 0x52")
        }

        @Test("btvirt: chunks are ATT_MTU - 3 for MTU 23, 185 and 517 (512 there: the attribute limit)", .requires(.btvirt, .preload, .tshark),
              .timeLimit(.minutes(3)))
        func chunkSizes() async throws {
            try RequiredComponent.require(.btvirt, .preload, .tshark)
            let folder = try WorkFolder("transfer-mtu")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, in: folder) { nodes in
                for mtu in [23, 185, 517] {
                    let payload = pattern(3000)
                    let run = await runTransfer(peripheral: nodes.hosts[0], .send(payload), central: nodes.hosts[1],
                                                .receive(reply: .none), profile: openGateProfile(mtu: mtu))
                    let received = try run.central.get()
                    #expect(received.payload == payload)
                    #expect(received.mtu == mtu)
                    let chunk = min(mtu - 3, 512)
                    #expect(run.chunkSizes == [chunk, chunk], "both sides announced ATT_MTU - 3")
                    #expect(received.largestChunk == chunk, "notifications on the air carried ATT_MTU - 3 bytes")
                    #expect(try run.peripheral.get().largestChunk == chunk)
                }
            }
            try checkOurCapture(folder.file("node0.pcap"), decodes: "btatt.opcode == 0x1b")
        }

        /// The sample's central writes back on "EOM" whatever arrived (issue 14: with an empty
        /// payload ours wrote nothing).
        @Test("btvirt: an empty payload is EOM alone, and the central still writes back (an empty value)",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func emptyPayloadWriteBack() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("transfer-empty")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, in: folder) { nodes in
                let run = await runTransfer(peripheral: nodes.hosts[0], .send([]), central: nodes.hosts[1], .receive(reply: .echoPrefix))
                let received = try run.central.get()
                #expect(received.payload == [] && received.chunks == 0)
                #expect(received.reply == [], "the central wrote back")
                #expect(try run.peripheral.get().reply == [], "the empty write-back reached the peripheral")
                #expect(await noConnections(nodes.hosts[0], nodes.hosts[1]))
            }
        }

        @Test("btvirt: a disconnect mid-transfer fails both sides clearly and leaves nothing behind",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func disconnectMidTransfer() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("transfer-cut")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, in: folder) { nodes in
                let (peripheralHost, centralHost) = (nodes.hosts[0], nodes.hosts[1])
                let cut = Flag()
                let run = await runTransfer(
                    peripheral: peripheralHost, .send(pattern(Self.megabyte)), central: centralHost, .receive(reply: .echoPrefix)
                ) { event, peripheralEvents in
                    guard case let .progress(progress) = event, progress.bytes >= 20_000,
                          cut.setFirst() else { return }
                    let connection = peripheralEvents.lazy.compactMap {
                        if case let .connected(connection) = $0 { connection } else { nil }
                    }.first
                    if let connection { try? await peripheralHost.disconnect(connection) }
                }
                guard case let .failure(.disconnected(reason, bytes)) = run.central else {
                    Issue.record("central: \(run.central)")
                    return
                }
                #expect(reason == .localHostTerminated || reason == .remoteUserTerminated, "\(String(describing: reason))")
                #expect(bytes >= 20_000 && bytes < Self.megabyte)
                guard case .failure(.disconnected) = run.peripheral else {
                    Issue.record("peripheral: \(run.peripheral)")
                    return
                }
                #expect(await noConnections(peripheralHost, centralHost))
                let connection = try #require(run.peripheralConnection)
                let handle = try #require(await peripheralHost.gattDatabase?.characteristic(uuid: TransferProfile.sampleCharacteristic)?.valueHandle)
                #expect(await !peripheralHost.isSubscribed(connection, to: handle), "no subscription left")
            }
        }

        /// The peripheral fails when the refusal reaches it while it is still sending. btvirt can
        /// take all 100,000 bytes in about 30 ms, before the central's host has read 10,000 of
        /// them; then the peripheral has nothing left to refuse and can only tell that no
        /// write-back came.
        @Test("btvirt: a payload over the central's limit: it unsubscribes and disconnects; the central fails, the peripheral gets no write-back",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func centralCleansUp() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("transfer-limit")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, in: folder) { nodes in
                let run = await runTransfer(peripheral: nodes.hosts[0], .send(pattern(100_000)), central: nodes.hosts[1],
                                            .receive(reply: .none), profile: openGateProfile(payloadLimit: 10_000))
                #expect(throws: TransferError.payloadTooLarge(limit: 10_000)) { try run.central.get() }
                switch run.peripheral {
                case .failure(.unsubscribed), .failure(.disconnected): break
                case let .success(summary) where summary.reply == nil: break
                default: Issue.record("peripheral: \(run.peripheral)")
                }
                #expect(await noConnections(nodes.hosts[0], nodes.hosts[1]))
            }
        }

        @Test("btvirt reports no RSSI: the sample's gate refuses, allowing \"not available\" connects",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func gateOnBTVirt() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("transfer-gate")
            defer { folder.cleanUp() }
            try await withHosts(.btvirt, in: folder) { nodes in
                var strict = TransferProfile()
                strict.scanTimeout = .seconds(2)
                let peripheral = TransferPeripheral(host: nodes.hosts[0], profile: strict).run(.send(pattern(100)))
                let events = EventLog<TransferEvent>()
                let outcome = await TransferCentral(host: nodes.hosts[1], profile: strict).run(.receive(reply: .none))
                    .outcome { event in events.record(event) }
                guard case let .failure(.noPeripheralFound(_, rejected, _)) = outcome else {
                    Issue.record("\(outcome)")
                    return
                }
                #expect(rejected >= 1)
                let decisions = events.events.compactMap { if case let .gate(_, decision) = $0 { decision } else { nil } }
                #expect(decisions.first?.passed == false && decisions.first?.rssi == nil, "\(decisions)")

                var lenient = strict
                lenient.gate.allowUnavailable = true
                lenient.scanTimeout = .seconds(10)
                let central = await TransferCentral(host: nodes.hosts[1], profile: lenient).run(.receive(reply: .none)).outcome()
                let summary = try central.get()
                #expect(summary.payload == pattern(100))
                _ = await peripheral.outcome()
            }
        }
    }
}

/// Whether no host has a connection open.
/// Whether no connection stays open on any of `hosts`. Each side hears of a disconnection on
/// its own (its Disconnection Complete), so every connection still open is given 10 s to end.
func noConnections(_ hosts: LEHost...) async -> Bool {
    for host in hosts {
        for connection in await host.connections {
            let ended = try? await withTimeout(.seconds(10), what: "the end of \(connection)") { () async -> Bool in
                _ = await host.waitForDisconnection(connection)
                return true
            }
            guard ended == true else { return false }
        }
    }
    return true
}

/// Set once; ``setFirst()`` says whether this call set it.
final class Flag: Sendable {
    private let value = Mutex(false)
    func setFirst() -> Bool { value.withLock { was in defer { was = true }; return !was } }
}
