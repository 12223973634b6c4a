import Foundation
import Glibc
import Synchronization

/// One TCP connection of the link: a reader thread turning the byte stream into message
/// bodies (``messages``, finished at end of stream), and a serial queue for writes.
final class TCPStream: Sendable {
    let fd: Int32
    /// Message bodies in order; finishes when the peer closes, a read fails, or ``close()``.
    let messages: AsyncStream<[UInt8]>
    private let writer: DispatchQueue
    /// Whether ``close()`` ran: the reader closes the descriptor once it stops, so it is
    /// never reused while a write still names it.
    private let shut = ShutFlag()

    /// Starts reading `fd`; messages longer than `limit` end the connection.
    init(fd: Int32, limit: Int) {
        self.fd = fd
        writer = DispatchQueue(label: "blueproof.link.tcp.write.\(fd)")
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        messages = stream
        let (writer, shut) = (writer, shut)
        Thread.detachNewThread {
            while let prefix = TCPSocket.readExactly(fd, 4) {
                let length = prefix.reduce(0) { $0 << 8 | Int($1) }
                guard length <= limit, let body = TCPSocket.readExactly(fd, length) else { break }
                continuation.yield(body)
            }
            continuation.finish()
            if shut.set() { shutdown(fd, Int32(SHUT_RDWR)) }
            // Closed after every write queued so far.
            writer.async { Glibc.close(fd) }
        }
    }

    /// Writes `bytes` whole; false when the connection is gone.
    func write(_ bytes: [UInt8]) async -> Bool {
        let fd = fd
        let shut = shut
        return await withCheckedContinuation { continuation in
            writer.async {
                let ok = !shut.isSet && TCPSocket.writeAll(fd, bytes)
                continuation.resume(returning: ok)
            }
        }
    }

    /// Ends the connection both ways; the reader finishes ``messages``.
    func close() {
        if shut.set() { shutdown(fd, Int32(SHUT_RDWR)) }
    }
}

/// Set once, by whichever of the reader and ``TCPStream/close()`` comes first.
final class ShutFlag: Sendable {
    private let value = Mutex(false)

    /// Sets the flag; true when this call set it.
    func set() -> Bool {
        value.withLock { value in
            defer { value = true }
            return !value
        }
    }

    var isSet: Bool { value.withLock { $0 } }
}
