import BlueproofControl
import BlueproofTransmitter
import BlueproofTransport
import Foundation
import Testing

/// The reference transmitter served by `ControlServer` and driven by `ControlClient` over a
/// real socket, against a second transmitter in process on the simulated link.
@Suite("Control protocol end to end")
struct ControlEndToEndTests {
    static let apiKey = "control-test"

    static func transmitter(on network: SimulatedNetwork) throws -> Transmitter {
        let licence = try LicenceIssuer.blueproofTest().issue(apiKey: apiKey, holder: "test", expires: Date().addingTimeInterval(3600))
        return Transmitter(configuration: TransmitterConfiguration(
            link: network.link(), session: InMemorySession(), apiKey: apiKey, licence: licence))
    }

    /// The first event of `stream` matching `matches`.
    static func first(_ stream: AsyncStream<TransmitterEvent>, _ matches: (TransmitterEvent) -> Bool) async -> TransmitterEvent? {
        for await event in stream where matches(event) { return event }
        return nil
    }

    @Test("start, connect, send both ways, refusals with their codes, keys and sessions through the protocol")
    func endToEnd() async throws {
        let network = SimulatedNetwork { _, _ in true }
        let served = try Self.transmitter(on: network)
        let local = try Self.transmitter(on: network)
        let path = NSTemporaryDirectory() + "bp-dut-\(UUID().uuidString.prefix(8)).sock"
        let server = try ControlServer(transmitter: served, listeningOn: .unix(path: path))
        let serving = Task { await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        let client = try await ControlClient.connect(to: server.address)
        let clientEvents = await client.events()
        let localEvents = await local.events()

        try await client.start(mode: .automatic)
        try await local.start(mode: .automatic)
        let remoteUser = try #require(await client.localUser())
        let localUser = try #require(await local.localUser())
        #expect(await Self.first(clientEvents) { $0 == .connected(localUser) } != nil)

        let dictionary: [String: TransmitterValue] = ["text": .string("over the wire"), "n": .integer(3), "blob": .binary(Data([0, 255]))]
        let id = try await client.send(dictionary: dictionary, data: Data([1, 2, 3]), to: localUser, options: .directTransmission)
        let arrived = await Self.first(localEvents) { if case .received(let packet) = $0 { packet.packetID == id } else { false } }
        guard case .received(let packet)? = arrived else { Issue.record("not delivered"); return }
        #expect(packet.dictionary == dictionary && packet.data == Data([1, 2, 3]) && packet.sender == remoteUser)

        let back = try await local.send(dictionary: ["reply": .bool(true)], data: nil, to: remoteUser, options: .directTransmission)
        let reply = await Self.first(clientEvents) { if case .received(let packet) = $0 { packet.packetID == back } else { false } }
        #expect(reply != nil, "the event of a packet received by the served transmitter reaches the client")

        await #expect(throws: TransmitterError.encryptedBroadcast) {
            _ = try await client.send(dictionary: dictionary, data: nil, to: nil, options: [.broadcastReceiver, .encrypted])
        }
        await #expect(throws: TransmitterError.noDataToSend) {
            _ = try await client.send(dictionary: nil, data: nil, to: localUser, options: .directTransmission)
        }
        #expect(try await client.transmissionSize(dictionary: dictionary, data: nil)
                == TransmitterPayload(dictionary: dictionary).transmissionSize)

        let key = try await client.localPublicKey()
        try await local.savePublicKey(key, forUser: remoteUser)
        #expect(await local.existsKey(forUser: remoteUser))
        try await client.setSecureConnectionExpirationLimit(42)
        #expect(await client.secureConnectionExpirationLimit() == 42)

        #expect(await client.hasSession())
        try await client.destroySession()
        #expect(await !client.hasSession())
        #expect(await client.failure == nil)
    }

    @Test("a server that goes away ends the client: calls throw controlChannel and failure says why")
    func serverGone() async throws {
        let network = SimulatedNetwork { _, _ in true }
        let server = try ControlServer(transmitter: try Self.transmitter(on: network), listeningOn: .tcp(host: "127.0.0.1", port: 0))
        let serving = Task { await server.run() }
        let client = try await ControlClient.connect(to: server.address)
        let events = await client.events()
        server.close()
        serving.cancel()
        for await _ in events {}  // the client's event stream ends with the channel
        await #expect(throws: TransmitterError.self) { try await client.start(mode: .automatic) }
        #expect(await client.failure?.detail?.contains("closed the control channel") == true)
    }

    @Test("nobody listening: connect fails with controlChannel naming the address")
    func nobody() async throws {
        let path = NSTemporaryDirectory() + "bp-none-\(UUID().uuidString.prefix(8)).sock"
        let error = await #expect(throws: TransmitterError.self) { _ = try await ControlClient.connect(to: .unix(path: path)) }
        #expect(error?.detail?.contains(path) == true)
    }
}
