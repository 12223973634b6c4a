import BlueproofTransport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    @Test("connecting where nobody listens fails, naming the endpoint: a tcp port held but not listening, a unix listener gone")
    func refused() async throws {
        // The port stays bound by this socket, so no other test's listener (nor a connect's own
        // source port) can take it between the close and the connect.
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(held >= 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(held, $0, length) == 0 && getsockname(held, $0, &length) == 0 }
        }
        try #require(bound)
        let tcp = TransportSpec.tcp(host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port))
        let listener = try StreamListener(listeningOn: .unix(path: NSTemporaryDirectory() + "bp-ctl-\(UUID().uuidString.prefix(8)).sock"))
        listener.close()
        for await _ in listener.connections {}  // the acceptor has closed the socket
        for spec in [tcp, listener.address] {
            let error = #expect(throws: TransportError.self) { try StreamSocket.connect(to: spec) }
            #expect(error.map { "\($0)" }?.contains(spec.description) == true, "\(spec)")
        }
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
