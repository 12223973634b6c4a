import BlueproofAsync
import BlueproofTransmitter
import Synchronization
import Testing

/// A relay reports a packet only once its forwards of it are on the link: `MeshRouter.receive`
/// puts the forwards first and `Transmitter.perform` awaits each send before the delivery.
/// Half of what BFT/DLV/BI-05 rests on (a tester's report means its forward, if any, has left);
/// the other half, a frame on its way once `send` returns, is each link's.
@Suite("Engine: a relay's forwards before its report", .timeLimit(.minutes(5)))
struct EngineRelayOrderTests {
    @Test("a relay held in the send of its forward has not reported the broadcast; released, it does")
    func forwardBeforeReport() async throws {
        let harness = EngineHarness()
        let sender = try await harness.node()
        let gated = HoldingLink(harness.network.link())
        let identity = try EngineHarness.identities.make()
        let session = InMemorySession(identity: identity)
        let relayTransmitter = Transmitter(configuration: try harness.configuration(session: session, link: gated))
        let relayLog = await TransmitterEventLog.attach(to: relayTransmitter)
        try await relayTransmitter.start(mode: .automatic)
        let relay = SimNode(transmitter: relayTransmitter, recorder: relayLog, user: identity.userID, session: session)
        let receiver = try await harness.node()
        try await harness.link(sender, relay)
        try await harness.link(relay, receiver)

        let to = receiver.user
        defer { gated.open() }
        gated.hold { frame, peer in if case .data = frame { peer == to } else { false } }
        let id = try await sender.transmitter.send(dictionary: EngineHarness.message("ordered"), data: nil, to: nil, options: .broadcastReceiver)
        let isForward: @Sendable (SeenFrame) -> Bool = { if case .data = $0.frame { $0.peer == to } else { false } }
        let held = try #require(await gated.sent.first(within: .seconds(30), where: isForward), "the relay never forwarded the broadcast to the receiver")
        guard case .data(let forwarded) = held.frame else { return }
        #expect(forwarded.packetID == id)
        // Counted as it is delivered (not through the event stream, which may lag): nothing yet.
        #expect(await EngineHarness.delivered(relay) == 0, "the relay delivered the broadcast before its forward's send returned")
        #expect(!relayLog.received.contains { $0.packetID == id })

        gated.open()
        _ = try await relayLog.receivedPacket(id)
        _ = try await receiver.recorder.receivedPacket(id)
    }
}
