import BlueproofTransmitter
import Foundation
import Testing

/// A session directory under the temporary directory, removed at deinit.
final class TemporarySessionDirectory: Sendable {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("blueproof-engine-\(UUID().uuidString)")
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    var store: SessionStore { SessionStore(directory: url) }
}

@Suite("Engine: sessions and saved state", .timeLimit(.minutes(5)))
struct EngineSessionTests {
    @Test("two transmitters on one store share the identity and the expiry limit")
    func shared() async throws {
        let harness = EngineHarness()
        let directory = TemporarySessionDirectory()
        let first = Transmitter(configuration: try harness.configuration(session: directory.store))
        try await first.start(mode: .automatic)
        let second = Transmitter(configuration: try harness.configuration(session: directory.store, link: SimulatedNetwork().link()))
        try await second.start(mode: .automatic)
        let user = try #require(await first.localUser())
        #expect(await second.localUser() == user)
        try await first.setSecureConnectionExpirationLimit(777)
        #expect(await second.secureConnectionExpirationLimit() == 777)
        #expect(try await first.localPublicKey() == second.localPublicKey())
    }

    @Test("destroySession stops; the next start has a new identity")
    func destroy() async throws {
        let harness = EngineHarness()
        let directory = TemporarySessionDirectory()
        let transmitter = Transmitter(configuration: try harness.configuration(session: directory.store))
        let recorder = await TransmitterEventLog.attach(to: transmitter)
        #expect(!(await transmitter.hasSession()))
        try await transmitter.start(mode: .automatic)
        let before = try #require(await transmitter.localUser())
        #expect(await transmitter.hasSession())
        try await transmitter.destroySession()
        try await recorder.first { $0 == .stopped }
        #expect(!(await transmitter.hasSession()))
        #expect(await transmitter.localUser() == nil)
        try await transmitter.start(mode: .automatic)
        let after = try #require(await transmitter.localUser())
        #expect(after != before)
    }

    @Test("a held packet saved with saveState is delivered by a new transmitter on the same store")
    func saveStateSurvivesRestart() async throws {
        let harness = EngineHarness()
        let directory = TemporarySessionDirectory()
        let receiver = try await harness.node()
        let sender = Transmitter(configuration: try harness.configuration(session: directory.store))
        try await sender.start(mode: .automatic)
        let senderUser = try #require(await sender.localUser())
        let senderEvents = await TransmitterEventLog.attach(to: sender)
        let id = try await sender.send(dictionary: EngineHarness.message("kept"), data: nil, to: receiver.user, options: [.meshTransmission])
        try await senderEvents.first { $0 == .addedToMesh(id) }
        try await sender.saveState()
        await sender.stop()

        let restarted = Transmitter(configuration: try harness.configuration(session: directory.store))
        try await restarted.start(mode: .automatic)
        #expect(await restarted.localUser() == senderUser)
        harness.network.addEdge(senderUser, receiver.user)
        let packet = try await receiver.recorder.receivedPacket(id)
        #expect(packet.sender == senderUser && packet.dictionary == EngineHarness.message("kept"))
    }

    @Test("without saveState a restart forgets held packets")
    func noSaveState() async throws {
        let harness = EngineHarness()
        let directory = TemporarySessionDirectory()
        let receiver = try await harness.node()
        let sender = Transmitter(configuration: try harness.configuration(session: directory.store))
        let events = await TransmitterEventLog.attach(to: sender)
        try await sender.start(mode: .automatic)
        let senderUser = try #require(await sender.localUser())
        let id = try await sender.send(dictionary: EngineHarness.message("lost"), data: nil, to: receiver.user, options: [.meshTransmission])
        try await events.first { $0 == .addedToMesh(id) }
        await sender.stop()
        let restarted = Transmitter(configuration: try harness.configuration(session: directory.store))
        try await restarted.start(mode: .automatic)
        harness.network.addEdge(senderUser, receiver.user)
        try await receiver.recorder.first { $0 == .connected(senderUser) }
        await harness.network.quiescent()
        #expect(await EngineHarness.delivered(receiver) == 0)
    }
}
