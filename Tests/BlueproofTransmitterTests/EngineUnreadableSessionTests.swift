import BlueproofTransmitter
import Foundation
import Synchronization
import Testing

/// A session the reference cannot read or write (a full file table, a failing disk) is never
/// taken for a fact about the peer: an encrypted send is refused with the session's own error, a
/// hello or a packet that cannot be checked against the key on record is refused (fails closed).
@Suite("Engine: a session that cannot be read", .timeLimit(.minutes(5)))
struct EngineUnreadableSessionTests {
    /// `inner` until `failing` is set; then every read and write fails with `.sessionError`.
    final class BreakableSession: TransmitterSessionBacking {
        let inner: InMemorySession
        let failing = Mutex(false)

        init(_ inner: InMemorySession) { self.inner = inner }

        private func check() throws(TransmitterError) {
            if failing.withLock({ $0 }) { throw TransmitterError.sessionError.with(detail: "test: the session cannot be read") }
        }

        var exists: Bool { inner.exists }
        func load() throws(TransmitterError) -> SessionRecord? { try check(); return try inner.load() }
        func loadOrCreate() throws(TransmitterError) -> SessionRecord { try check(); return try inner.loadOrCreate() }
        func update(_ change: (inout SessionRecord) throws(TransmitterError) -> Void) throws(TransmitterError) -> SessionRecord {
            try check()
            return try inner.update(change)
        }
        func destroy() throws(TransmitterError) { try check(); try inner.destroy() }
        func writeFile(named name: String, contents: [UInt8]) throws(TransmitterError) { try check(); try inner.writeFile(named: name, contents: contents) }
        func readFile(named name: String) throws(TransmitterError) -> [UInt8]? { try check(); return try inner.readFile(named: name) }
    }

    /// A started node `a` on a breakable session, making secure connections with everyone, and
    /// a plain node `b` on the same network, not yet in range.
    static func nodes() async throws -> (harness: EngineHarness, a: SimNode, b: SimNode, session: BreakableSession) {
        let harness = EngineHarness()
        let identity = try EngineHarness.identities.make()
        let session = BreakableSession(InMemorySession(identity: identity))
        let transmitter = Transmitter(configuration: try harness.configuration(session: session, secure: { _ in true }))
        let recorder = await TransmitterEventLog.attach(to: transmitter)
        try await transmitter.start(mode: .automatic)
        let a = SimNode(transmitter: transmitter, recorder: recorder, user: identity.userID, session: session)
        return (harness, a, try await harness.node(), session)
    }

    @Test("an encrypted send is refused with the session's error, not as no secure connection; a plain send goes on")
    func encryptedSend() async throws {
        let (harness, a, b, session) = try await Self.nodes()
        try await a.transmitter.setSecureConnectionExpirationLimit(100)
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .secureConnection(b.user) }
        harness.network.removeEdge(a.user, b.user)
        try await a.recorder.first { $0 == .disconnected(b.user) }
        await harness.network.quiescent()

        session.failing.withLock { $0 = true }
        await #expect(throws: TransmitterError.sessionError) { try await EngineSecureTests.sendEncrypted(a, to: b) }
        _ = try await a.transmitter.send(dictionary: EngineHarness.message("plain"), data: nil, to: b.user, options: [.meshTransmission])
        session.failing.withLock { $0 = false }
        _ = try await EngineSecureTests.sendEncrypted(a, to: b)  // readable again, the secure connection is still live
    }

    @Test("a peer's hello cannot be checked against the key on record: the connection is refused")
    func hello() async throws {
        let (harness, a, b, session) = try await Self.nodes()
        session.failing.withLock { $0 = true }
        harness.network.addEdge(a.user, b.user)
        await harness.network.quiescent()
        try await a.caughtUp()
        #expect(!a.recorder.events.contains(.connected(b.user)), "\(a.recorder.events)")
        // Readable again, the same peer is admitted.
        session.failing.withLock { $0 = false }
        harness.network.removeEdge(a.user, b.user)
        await harness.network.quiescent()
        harness.network.addEdge(a.user, b.user)
        try await a.recorder.first { $0 == .connected(b.user) }
    }
}
