import BlueproofAsync
import BlueproofTransmitter
import Foundation
import Synchronization

/// An event a test waited for did not come.
struct EventNotSeen: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "the awaited transmitter event did not come within \(limit)" }
}

/// The waits of the engine tests on a transmitter's events (``TransmitterEventLog``), which
/// fail the test instead of returning nil.
extension EventLog where Event == TransmitterEvent {
    /// The first event (recorded from position `start` on, or to come) matching `predicate`;
    /// one that never comes fails the test after 30 s rather than hanging the run.
    @discardableResult
    func first(from start: Int = 0, where predicate: @escaping @Sendable (TransmitterEvent) -> Bool) async throws -> TransmitterEvent {
        let limit = Duration.seconds(30)
        guard let event = await first(within: limit, from: start, where: predicate) else { throw EventNotSeen(limit: limit) }
        return event
    }

    func receivedPacket(_ id: PacketID) async throws -> ReceivedPacket {
        let limit = Duration.seconds(30)
        guard let packet = await received(id, within: limit) else { throw EventNotSeen(limit: limit) }
        return packet
    }
}

/// One transmitter on the simulated network, with its recorder.
struct SimNode: Sendable {
    let transmitter: Transmitter
    let recorder: TransmitterEventLog
    let user: UserID
    let session: any TransmitterSessionBacking
}

extension SimNode {
    /// Waits until the recorder holds every event the transmitter has emitted so far, before a
    /// test reads it for an absence or a count (the recorder is fed asynchronously): a second
    /// start changes nothing and reports `alreadyStarted` after them, on the same ordered stream.
    func caughtUp() async throws {
        let mark = recorder.events.count
        try await transmitter.start(mode: .automatic)
        try await recorder.first(from: mark) { $0 == .alreadyStarted }
    }
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
        let recorder = await TransmitterEventLog.attach(to: transmitter)
        try await transmitter.start(mode: mode)
        return SimNode(transmitter: transmitter, recorder: recorder, user: identity.userID, session: session)
    }

    /// Puts two nodes in range and waits until both see the connection (automatic mode).
    func link(_ a: SimNode, _ b: SimNode) async throws {
        network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .connected(b.user) }
        try await b.recorder.first { $0 == .connected(a.user) }
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
