import BlueproofAsync
import BlueproofTransmitter
import Synchronization

/// A frame a ``HoldingLink`` saw, and the peer it was for or from.
struct SeenFrame: Sendable {
    let frame: TransmitterFrame
    let peer: UserID
}

/// A link that stops a transmitter at a chosen point of an exchange: it records every frame
/// sent (`sent`), holds the outgoing frames a test picks until `open()` (the sender waits in
/// that send), and drops the incoming frames a test picks (the peer's part never arrives).
final class HoldingLink: TransmitterLink {
    typealias Pick = @Sendable (TransmitterFrame, UserID) -> Bool

    private struct State {
        var holding: Pick?
        var dropping: Pick?
        var release = OneShot<Void>()
    }

    private let inner: any TransmitterLink
    private let state = Mutex(State())
    /// Every frame sent, in order, held or not.
    let sent = EventLog<SeenFrame>()

    init(_ inner: any TransmitterLink) { self.inner = inner }

    /// Holds, from now on, every outgoing frame `picks` chooses.
    func hold(_ picks: @escaping Pick) { state.withLock { $0.holding = picks } }

    /// Drops, from now on, every incoming frame `picks` chooses.
    func drop(_ picks: @escaping Pick) { state.withLock { $0.dropping = picks } }

    /// Sends what was held and holds nothing more.
    func open() {
        let release = state.withLock { state in
            state.holding = nil
            return state.release
        }
        release.resolve(())
    }

    var kind: LinkKind { inner.kind }
    func start(localUser: UserID) async throws(LinkError) { try await inner.start(localUser: localUser) }
    func stop() async { await inner.stop() }
    func connect(to peer: UserID) async throws(LinkError) { try await inner.connect(to: peer) }
    func disconnect(from peer: UserID) async { await inner.disconnect(from: peer) }

    func events() -> AsyncStream<LinkEvent> {
        let upstream = inner.events()
        return AsyncStream { continuation in
            let forwarding = Task { [self] in
                for await event in upstream where !drops(event) { continuation.yield(event) }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    private func drops(_ event: LinkEvent) -> Bool {
        guard case .frame(let peer, let bytes) = event, let dropping = state.withLock({ $0.dropping }),
              let decoded = try? TransmitterFrame.decode(bytes) else { return false }
        return dropping(decoded, peer)
    }

    func send(_ frame: [UInt8], to peer: UserID) async throws(LinkError) {
        let (holding, release) = state.withLock { ($0.holding, $0.release) }
        if let decoded = try? TransmitterFrame.decode(frame) {
            sent.record(SeenFrame(frame: decoded, peer: peer))
            if holding?(decoded, peer) == true { _ = await release.wait() }
        }
        try await inner.send(frame, to: peer)
    }
}
