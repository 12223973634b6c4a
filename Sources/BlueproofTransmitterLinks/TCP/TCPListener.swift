import Foundation
import Glibc

/// A listening socket and the thread that accepts on it.
final class TCPListener: Sendable {
    let fd: Int32
    let port: UInt16
    /// Accepted sockets (TCP_NODELAY set); finishes when the listener closes.
    let accepted: AsyncStream<Int32>
    private let shut = ShutFlag()

    init(on address: TCPAddress) throws(TCPSocketError) {
        (fd, port) = try TCPSocket.listen(on: address)
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        accepted = stream
        let (fd, shut) = (fd, shut)
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0, errno == EINTR || errno == ECONNABORTED { continue }
                guard client >= 0, !shut.isSet else {
                    if client >= 0 { Glibc.close(client) }
                    break
                }
                TCPSocket.noDelay(client)
                continuation.yield(client)
            }
            continuation.finish()
            Glibc.close(fd)
        }
    }

    /// Stops accepting (shutdown wakes the blocked accept on Linux; the thread closes the socket).
    func close() {
        if shut.set() { shutdown(fd, Int32(SHUT_RDWR)) }
    }
}
