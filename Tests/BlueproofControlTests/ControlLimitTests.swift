import BlueproofTransmitter
import BlueproofTransport
import Foundation
import Testing
@testable import BlueproofControl

/// Hostile control lines (issue 11): deep nesting, over-long lines and events that cannot be
/// written are answered with protocol errors, never a crash, a hang or `{}`.
@Suite("Control protocol limits")
struct ControlLimitTests {
    /// A served reference transmitter, not started.
    static func server() throws -> ControlServer {
        let transmitter = try ControlEndToEndTests.transmitter(on: SimulatedNetwork { _, _ in true })
        return try ControlServer(transmitter: transmitter, listeningOn: .tcp(host: "127.0.0.1", port: 0))
    }

    @Test("a command line of 100,000 nested [ is answered with id -1, not a crash")
    func nestedBrackets() async throws {
        let server = try Self.server()
        defer { server.close() }
        let response = await server.answer(Array(String(repeating: "[", count: 100_000).utf8))
        #expect(response.id == -1 && !response.ok)
        #expect(response.error?.code == 0)
    }

    @Test("a dictionary nested 500 levels deep in a command is refused naming the limit")
    func nestedDictionary() async throws {
        let server = try Self.server()
        defer { server.close() }
        let depth = 500
        let line = #"{"id":3,"command":"transmissionSize","dictionary":{"a":"# + String(repeating: "[", count: depth)
            + "1" + String(repeating: "]", count: depth) + "}}"
        let response = await server.answer(Array(line.utf8))
        #expect(response.id == 3 && !response.ok)
        #expect(response.error?.code == TransmitterError.unsupportedDictionaryValue.code)
        #expect(response.error?.detail?.contains("\(TransmitterValue.maxNestingDepth) levels") == true,
                "\(String(describing: response.error))")
    }

    @Test("an over-long command line gets an error naming the limit and its client is closed; others are still served")
    func overLongLine() async throws {
        let server = try Self.server()
        let serving = Task { await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        let attacker = try StreamSocket.connect(to: server.address)
        let bystander = try await ControlClient.connect(to: server.address)
        try attacker.send(Array(repeating: UInt8(ascii: "x"), count: LineSplitter.maxLineBytes + 1) + [0x0A])
        var splitter = LineSplitter()
        var lines: [String] = []
        var incoming = attacker.incoming.makeAsyncIterator()
        while lines.count < 2, let bytes = try await incoming.next() {
            lines += try splitter.feed(bytes).map { String(decoding: $0, as: UTF8.self) }
        }
        let answer = try #require(lines.count == 2 ? lines[1] : nil, "hello, then the answer")
        #expect(answer.contains(#""id":-1"#) && answer.contains(#""ok":false"#))
        try #require(answer.contains("\(LineSplitter.maxLineBytes) bytes"), "\(answer)")
        while try await incoming.next() != nil {}  // ends only when the server closes the connection
        try await bystander.setSecureConnectionExpirationLimit(7)
        #expect(await bystander.secureConnectionExpirationLimit() == 7)
        #expect(await bystander.failure == nil)
    }

    @Test("an event the server cannot write becomes an error event; the client ends naming it")
    func unencodableEvent() async throws {
        let packet = ReceivedPacket(packetID: UUID(), sender: .random(), dictionary: ["x": .number(.nan)], data: nil,
                                    broadcast: false, mesh: false, encrypted: false)
        let server = try ControlServer(transmitter: OneEventTransmitter(event: .received(packet)),
                                       listeningOn: .tcp(host: "127.0.0.1", port: 0))
        let serving = Task { await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        let raw = try StreamSocket.connect(to: server.address)
        var splitter = LineSplitter()
        var seen: [String] = []
        for try await bytes in raw.incoming {
            seen += try splitter.feed(bytes).map { String(decoding: $0, as: UTF8.self) }
            if seen.count >= 2 { break }
        }
        raw.close()
        let line = try #require(seen.last)
        #expect(line.contains(#""event":"error""#) && line.contains("received"), "\(line)")

        let client = try await ControlClient.connect(to: server.address)
        for await _ in await client.events() {}  // ends with the channel
        let failure = await client.failure
        #expect(failure?.detail?.contains("received") == true, "\(String(describing: failure))")
    }
}

/// A transmitter whose only event is `event`, sent to every subscriber; every call does nothing.
private struct OneEventTransmitter: TransmitterControl {
    let event: TransmitterEvent

    func events() async -> AsyncStream<TransmitterEvent> {
        let (stream, continuation) = AsyncStream<TransmitterEvent>.makeStream()
        continuation.yield(event)
        return stream
    }
    func start(mode: ConnectionMode) async throws(TransmitterError) {}
    func stop() async {}
    func localUser() async -> UserID? { nil }
    func send(dictionary: [String: TransmitterValue]?, data: Data?, to receiver: UserID?, options: SendingOptions) async throws(TransmitterError) -> PacketID {
        throw .notStarted
    }
    func transmissionSize(dictionary: [String: TransmitterValue]?, data: Data?) async throws(TransmitterError) -> Int { 0 }
    func connect(to user: UserID) async throws(TransmitterError) {}
    func disconnect(from user: UserID) async throws(TransmitterError) {}
    func establishSecureConnection(with user: UserID) async throws(TransmitterError) {}
    func secureConnectionExpirationLimit() async -> Int { 0 }
    func setSecureConnectionExpirationLimit(_ seconds: Int) async throws(TransmitterError) {}
    func localPublicKey() async throws(TransmitterError) -> String { "" }
    func savePublicKey(_ key: String, forUser user: UserID) async throws(TransmitterError) {}
    func existsKey(forUser user: UserID) async -> Bool { false }
    func hasSession() async -> Bool { false }
    func destroySession() async throws(TransmitterError) {}
    func setLogLevel(_ level: TransmitterLogLevel) async {}
    func saveState() async throws(TransmitterError) {}
}
