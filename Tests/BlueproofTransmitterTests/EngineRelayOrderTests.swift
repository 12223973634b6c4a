import BlueproofAsync
import BlueproofTransmitter
import Synchronization
import Testing

/// A relay reports a packet only once its forwards of it are on the link: `MeshRouter.receive`
/// puts the forwards first and `Transmitter.perform` awaits each send before the delivery.
/// BFT/DLV/BI-05 rests on it (a tester's report means its forward, if any, has left).
@Suite("Engine: a relay's forwards before its report", .timeLimit(.minutes(5)))
struct EngineRelayOrderTests {
    @Test("a relay held in the send of its forward has not reported the broadcast; released, it does")
    func forwardBeforeReport() async throws {
        let harness = EngineHarness()
        let sender = try await harness.node()
        let gated = DataFrameGate(harness.network.link())
        let identity = try EngineHarness.identities.make()
        let session = InMemorySession(identity: identity)
        let relayTransmitter = Transmitter(configuration: try harness.configuration(session: session, link: gated))
        let relayLog = await TransmitterEventLog.attach(to: relayTransmitter)
        try await relayTransmitter.start(mode: .automatic)
        let relay = SimNode(transmitter: relayTransmitter, recorder: relayLog, user: identity.userID, session: session)
        let receiver = try await harness.node()
        try await harness.link(sender, relay)
        try await harness.link(relay, receiver)

        gated.close(to: receiver.user)
        let id = try await sender.transmitter.send(dictionary: EngineHarness.message("ordered"), data: nil, to: nil, options: .broadcastReceiver)
        let heldFor = try #require(try await withTimeout(.seconds(30), what: "the relay's forward to the receiver") { await gated.held.wait() })
        #expect(heldFor == id)
        // Counted as it is delivered (not through the event stream, which may lag): nothing yet.
        #expect(await EngineHarness.delivered(relay) == 0, "the relay delivered the broadcast before its forward's send returned")
        #expect(!relayLog.received.contains { $0.packetID == id })

        gated.open()
        _ = try await relayLog.receivedPacket(id)
        _ = try await receiver.recorder.receivedPacket(id)
    }
}

/// A link that, once closed to a peer, holds every data frame sent to it until opened again,
/// and tells which packet it first held.
final class DataFrameGate: TransmitterLink {
    private struct State {
        var closedTo: UserID?
        var release = OneShot<Void>()
    }

    private let inner: any TransmitterLink
    private let state = Mutex(State())
    /// The packet of the first data frame held.
    let held = OneShot<PacketID>()

    init(_ inner: any TransmitterLink) { self.inner = inner }

    func close(to peer: UserID) { state.withLock { $0.closedTo = peer } }

    func open() {
        let release = state.withLock { state in
            state.closedTo = nil
            return state.release
        }
        release.resolve(())
    }

    var kind: LinkKind { inner.kind }
    func events() -> AsyncStream<LinkEvent> { inner.events() }
    func start(localUser: UserID) async throws(LinkError) { try await inner.start(localUser: localUser) }
    func stop() async { await inner.stop() }
    func connect(to peer: UserID) async throws(LinkError) { try await inner.connect(to: peer) }
    func disconnect(from peer: UserID) async { await inner.disconnect(from: peer) }

    func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        let release = state.withLock { $0.closedTo == peer ? $0.release : nil }
        if let release, case .data(let data)? = try? TransmitterFrame.decode(frame) {
            held.resolve(data.packetID)
            _ = await release.wait()
        }
        try await inner.send(frame, to: peer)
    }
}
