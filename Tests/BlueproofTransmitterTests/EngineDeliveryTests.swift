import BlueproofTransmitter
import Foundation
import Testing

@Suite("Engine: delivery", .timeLimit(.minutes(5)))
struct EngineDeliveryTests {
    @Test("direct: sentDirect, received with dictionary and binary, not mesh, not broadcast")
    func direct() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        try await harness.link(a, b)
        let binary = Data([1, 2, 3, 4])
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("direct"), data: binary, to: b.user, options: [.directTransmission])
        try await a.recorder.first { $0 == .sentDirect(id) }
        let packet = try await b.recorder.receivedPacket(id)
        #expect(packet.sender == a.user && packet.dictionary == EngineHarness.message("direct") && packet.data == binary)
        #expect(!packet.broadcast && !packet.mesh && !packet.encrypted)
    }

    @Test("direct to a user out of range is refused synchronously")
    func directAway() async throws {
        let harness = EngineHarness()
        let a = try await harness.node()
        await #expect(throws: TransmitterError.directReceiverNotInRange) {
            try await a.transmitter.send(dictionary: EngineHarness.message("x"), data: nil, to: .random(), options: [.directTransmission])
        }
    }

    @Test("full with the receiver in range goes direct")
    func fullDirect() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        try await harness.link(a, b)
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("full"), data: nil, to: b.user, options: [.fullTransmission])
        try await a.recorder.first { $0 == .sentDirect(id) }
        #expect(try await b.recorder.receivedPacket(id).mesh == false)
    }

    @Test("full with the receiver away falls back to the mesh and arrives when it comes in range")
    func fullFallback() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("later"), data: nil, to: b.user, options: [.fullTransmission])
        try await a.recorder.first { $0 == .addedToMesh(id) }
        let events = a.recorder.events.filter { $0.packetEventID == id }
        #expect(events == [.fellBackToMesh(id), .addedToMesh(id)])
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(b) == 0)
        harness.network.addEdge(a.user, b.user)
        let packet = try await b.recorder.receivedPacket(id)
        #expect(packet.mesh && !packet.broadcast && packet.dictionary == EngineHarness.message("later"))
    }

    @Test("A–B–C: mesh from A reaches C through B; B does not deliver it")
    func chain() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node(), c = try await harness.node()
        try await harness.link(a, b)
        try await harness.link(b, c)
        #expect(!harness.network.neighbours(of: a.user).contains(c.user))
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("relay"), data: nil, to: c.user, options: [.meshTransmission])
        let packet = try await c.recorder.receivedPacket(id)
        #expect(packet.sender == a.user && packet.mesh)
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(b) == 0)
        #expect(await b.transmitter.currentStatistics().forwarded == 1)
    }

    @Test("broadcast arrives everywhere with the broadcast and mesh flags")
    func broadcastFlags() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node(), c = try await harness.node()
        try await harness.link(a, b)
        try await harness.link(b, c)
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("all"), data: nil, to: nil, options: [.broadcastReceiver])
        for node in [b, c] {
            let packet = try await node.recorder.receivedPacket(id)
            #expect(packet.broadcast && packet.mesh && !packet.encrypted && packet.sender == a.user)
        }
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(a) == 0, "the sender does not receive its own broadcast")
    }

    @Test("a held mesh packet expires and is discarded instead of delivered")
    func expiry() async throws {
        let harness = EngineHarness()
        let a = try await harness.node(), b = try await harness.node()
        let id = try await a.transmitter.send(dictionary: EngineHarness.message("old"), data: nil, to: b.user, options: [.meshTransmission])
        try await a.recorder.first { $0 == .addedToMesh(id) }
        harness.clock.advance(by: TransmitterConfiguration.defaultMeshExpiry + 1)
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .discarded(id, reason: "expired") }
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(b) == 0)
    }

    @Test("a received mesh packet over the link's mesh limit is rejected by size")
    func rejectedBySize() async throws {
        let harness = EngineHarness()
        // B's limits are the document's (1 KB mesh over BLE); A's allow 2048 bytes (Mesh section).
        let a = try await harness.node()
        let sessionB = InMemorySession(identity: try EngineHarness.identities.make())
        let b = Transmitter(configuration: try harness.configuration(session: sessionB))
        let recorderB = await TransmitterEventLog.attach(to: b)
        try await b.start(mode: .automatic)
        let userB = try #require(await b.localUser())
        var wide = TransmitterLimits.documented
        wide.meshLimitSource = .meshSection
        let sessionA2 = InMemorySession(identity: try EngineHarness.identities.make())
        var configuration = try harness.configuration(session: sessionA2)
        configuration.limits = wide
        let a2 = Transmitter(configuration: configuration)
        try await a2.start(mode: .automatic)
        let userA2 = try #require(await a2.localUser())
        harness.network.addEdge(userA2, userB)
        _ = a
        try await recorderB.first { $0 == .connected(userA2) }
        let big: [String: TransmitterValue] = ["text": .string(String(repeating: "x", count: 1500))]
        let id = try await a2.send(dictionary: big, data: nil, to: userB, options: [.meshTransmission])
        let event = try await recorderB.first { $0.packetEventID == id }
        #expect(event == .rejectedBySize(id, size: 1511, limit: 1024))
    }
}
