import BlueproofTransport
import Foundation
import Testing

@Suite("Stream sockets")
struct StreamSocketTests {
    @Test("tcp on port 0: the listener reports its port; bytes flow both ways; close ends the peer's stream")
    func tcp() async throws {
        try await roundTrip(listen: .tcp(host: "127.0.0.1", port: 0))
    }

    @Test("unix: bytes flow both ways; the socket file goes when the listener closes")
    func unix() async throws {
        let path = NSTemporaryDirectory() + "bp-ctl-\(UUID().uuidString.prefix(8)).sock"
        try await roundTrip(listen: .unix(path: path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a unix path that is a regular file is refused, and left alone")
    func unixRefusesFile() throws {
        let path = NSTemporaryDirectory() + "bp-ctl-\(UUID().uuidString.prefix(8)).txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TransportError.self) { try StreamListener(listeningOn: .unix(path: path)) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
    }

    @Test("connecting where nobody listens any more fails, naming the endpoint")
    func refused() async throws {
        let listener = try StreamListener(listeningOn: .tcp(host: "127.0.0.1", port: 0))
        listener.close()
        for await _ in listener.connections {}  // the acceptor has closed the socket
        let error = #expect(throws: TransportError.self) { try StreamSocket.connect(to: listener.address) }
        #expect(error.map { "\($0)" }?.contains(listener.address.description) == true)
    }

    private func roundTrip(listen spec: TransportSpec) async throws {
        let listener = try StreamListener(listeningOn: spec)
        if case .tcp(_, let port) = listener.address { #expect(port != 0) }
        let client = try StreamSocket.connect(to: listener.address)
        var accepted = listener.connections.makeAsyncIterator()
        let server = try #require(await accepted.next())
        let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.send(payload)
        var received: [UInt8] = []
        for try await bytes in server.incoming {
            received += bytes
            if received.count >= payload.count { break }
        }
        #expect(received == payload)
        try server.send(Array("pong".utf8))
        var reply: [UInt8] = []
        for try await bytes in client.incoming {
            reply += bytes
            if reply.count >= 4 { break }
        }
        #expect(reply == Array("pong".utf8))
        server.close()
        var after: [UInt8] = []
        for try await bytes in client.incoming { after += bytes }
        #expect(after.isEmpty)
        client.close()
        listener.close()
        for await _ in listener.connections {}
    }
}
