import BlueproofTransmitter
import Foundation
import Synchronization

/// Records a transmitter's events and lets a test wait for one (no polling: waiters are resumed
/// as events arrive).
final class EventRecorder: Sendable {
    private struct State {
        var events: [TransmitterEvent] = []
        var waiters: [(@Sendable (TransmitterEvent) -> Bool, CheckedContinuation<TransmitterEvent, Never>)] = []
    }

    private let state = Mutex(State())

    static func attach(to transmitter: Transmitter) async -> EventRecorder {
        let recorder = EventRecorder()
        let stream = await transmitter.events()
        Task { for await event in stream { recorder.record(event) } }
        return recorder
    }

    private func record(_ event: TransmitterEvent) {
        let ready = state.withLock { state in
            state.events.append(event)
            var ready: [CheckedContinuation<TransmitterEvent, Never>] = []
            state.waiters.removeAll { predicate, continuation in
                guard predicate(event) else { return false }
                ready.append(continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: event) }
    }

    var events: [TransmitterEvent] { state.withLock { $0.events } }

    /// The first event (recorded from position `from` on, or future) matching `predicate`.
    @discardableResult
    func first(from start: Int = 0, where predicate: @escaping @Sendable (TransmitterEvent) -> Bool) async -> TransmitterEvent {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> TransmitterEvent? in
                if let event = state.events.dropFirst(start).first(where: predicate) { return event }
                state.waiters.append((predicate, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Received packets so far.
    var received: [ReceivedPacket] {
        events.compactMap { if case .received(let packet) = $0 { packet } else { nil } }
    }

    func receivedPacket(_ id: PacketID) async -> ReceivedPacket {
        let event = await first { if case .received(let packet) = $0 { packet.packetID == id } else { false } }
        guard case .received(let packet) = event else { fatalError("unreachable") }
        return packet
    }
}

/// One transmitter on the simulated network, with its recorder.
struct SimNode: Sendable {
    let transmitter: Transmitter
    let recorder: EventRecorder
    let user: UserID
    let session: any TransmitterSessionBacking
}

/// Builds transmitters on one `SimulatedNetwork` with a manual clock.
final class EngineHarness: Sendable {
    static let apiKey = "blueproof-test-api-key"
    /// One shared RSA key for every simulated identity (see `SimulatedIdentities`).
    static let identities: SimulatedIdentities = try! SimulatedIdentities()

    let network = SimulatedNetwork()
    let clock = ManualTimeSource()

    func licence(validFor seconds: TimeInterval = 365 * 86400) throws -> String {
        try LicenceIssuer.blueproofTest().issue(apiKey: Self.apiKey, holder: "blueproof tests", expires: clock.now().addingTimeInterval(seconds))
    }

    func configuration(
        session: any TransmitterSessionBacking,
        link: (any TransmitterLink)? = nil,
        defects: TransmitterDefects = [],
        hopLimit: Int = 16,
        secure: @escaping @Sendable (UserID) -> Bool = { _ in false },
        licence: String? = nil
    ) throws -> TransmitterConfiguration {
        TransmitterConfiguration(
            link: link ?? network.link(), session: session, apiKey: Self.apiKey,
            licence: try licence ?? self.licence(), timeSource: clock, shouldConnectSecurely: secure,
            hopLimit: hopLimit, displayName: "node", deviceType: "sim", defects: defects)
    }

    /// A started node with a fresh simulated identity.
    func node(
        mode: ConnectionMode = .automatic,
        defects: TransmitterDefects = [],
        hopLimit: Int = 16,
        secure: @escaping @Sendable (UserID) -> Bool = { _ in false }
    ) async throws -> SimNode {
        let identity = try Self.identities.make()
        let session = InMemorySession(identity: identity)
        let transmitter = Transmitter(configuration: try configuration(session: session, defects: defects, hopLimit: hopLimit, secure: secure))
        let recorder = await EventRecorder.attach(to: transmitter)
        try await transmitter.start(mode: mode)
        return SimNode(transmitter: transmitter, recorder: recorder, user: identity.userID, session: session)
    }

    /// Puts two nodes in range and waits until both see the connection (automatic mode).
    func link(_ a: SimNode, _ b: SimNode) async {
        network.addEdge(a.user, b.user)
        await a.recorder.first { $0 == .connected(b.user) }
        await b.recorder.first { $0 == .connected(a.user) }
        await network.quiescent()
    }

    /// Packets the node reported as received (counted as they are handled, so exact once the
    /// network is quiescent; the recorder's copy may lag behind).
    static func delivered(_ node: SimNode) async -> Int {
        await node.transmitter.currentStatistics().delivered
    }

    /// A dictionary with a recognisable marker.
    static func message(_ text: String) -> [String: TransmitterValue] { ["text": .string(text)] }
}

extension TransmitterEvent {
    var packetEventID: PacketID? {
        switch self {
        case .sentDirect(let id), .addedToMesh(let id), .fellBackToMesh(let id), .failed(let id, _),
             .discarded(let id, _), .rejectedBySize(let id, _, _):
            id
        case .received(let packet): packet.packetID
        default: nil
        }
    }
}
