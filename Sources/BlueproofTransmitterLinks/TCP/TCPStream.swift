import BlueproofTransport
import Dispatch

/// One TCP connection of the link, on a ``StreamSocket`` (the transports' reader thread and
/// write path): its bytes cut into message bodies (``messages``: a 4-octet big-endian length,
/// then the body; docs/transmitter-links.md, "TCP"), and a serial queue for writes, so a peer
/// that stops reading holds that queue, never a thread of the pool.
final class TCPStream: Sendable {
    let socket: StreamSocket
    /// Message bodies in order; finishes when the peer closes, a read fails, a body is longer
    /// than the limit (which ends the connection), or ``close()``.
    let messages: AsyncStream<[UInt8]>
    private let writer = DispatchQueue(label: "blueproof.link.tcp.write")

    /// Starts cutting `socket`'s bytes into bodies of at most `limit` octets.
    init(_ socket: StreamSocket, limit: Int) {
        self.socket = socket
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        messages = stream
        Task {
            var buffer: [UInt8] = []
            do {
                reading: for try await bytes in socket.incoming {
                    buffer += bytes
                    var start = 0
                    while buffer.count - start >= 4 {
                        let length = buffer[start..<(start + 4)].reduce(0) { $0 << 8 | Int($1) }
                        guard length <= limit else { break reading }
                        guard buffer.count - start - 4 >= length else { break }
                        continuation.yield(Array(buffer[(start + 4)..<(start + 4 + length)]))
                        start += 4 + length
                    }
                    buffer.removeFirst(start)
                }
            } catch {
                // A failed read ends the connection as its end does.
            }
            continuation.finish()
            socket.close()
        }
    }

    /// Connects to `address` (TCP_NODELAY set) off the cooperative pool: a connect may block.
    static func dial(_ address: TCPAddress, limit: Int) async throws(TransportError) -> TCPStream {
        let result: Result<StreamSocket, TransportError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(TransportError) -> StreamSocket in
                    try StreamSocket.connect(to: .tcp(host: address.host, port: address.port))
                })
            }
        }
        return TCPStream(try result.get(), limit: limit)
    }

    /// Writes `bytes` whole; false when the connection is gone.
    func write(_ bytes: [UInt8]) async -> Bool {
        let socket = socket
        return await withCheckedContinuation { continuation in
            writer.async { continuation.resume(returning: (try? socket.send(bytes)) != nil) }
        }
    }

    /// Ends the connection both ways (a write blocked on a full socket is freed); ``messages`` finishes.
    func close() { socket.close() }
}

extension StreamListener {
    /// The TCP port it listens on (the one the system chose when 0 was asked for).
    var tcpPort: UInt16? {
        if case let .tcp(_, port) = address { port } else { nil }
    }
}
