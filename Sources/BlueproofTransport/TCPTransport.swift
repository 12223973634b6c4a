import CBlueproofSystem
import Glibc

/// `tcp:HOST:PORT`: H4 over TCP, as served by Rootcanal.
///
/// Sets TCP_NODELAY (no Nagle delay on small commands) and TCP_QUICKACK. Linux clears
/// QUICKACK again as the connection goes on, so ``rearmQuickAck`` sets it after every read;
/// without it an HCI command round trip to Rootcanal measured about 45 ms instead of 5.
enum TCPTransport {
    static func connect(host: String, port: UInt16, endpoint: String) throws(TransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = bp_transport_sock_stream()
        hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let detail = status == EAI_SYSTEM ? errnoText(errno) : String(cString: gai_strerror(status))
            throw .hostNotFound(host: host, detail: detail)
        }
        defer { freeaddrinfo(list) }

        var lastError = ECONNREFUSED
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            switch SocketSupport.connectedStream(family: info.pointee.ai_family, protocol: info.pointee.ai_protocol,
                                                 to: info.pointee.ai_addr, length: info.pointee.ai_addrlen) {
            case let .success(fd):
                SocketSupport.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                rearmQuickAck(fd)
                return fd
            case let .failure(failure):
                lastError = failure.errno
            }
        }
        throw .connectFailed(endpoint: endpoint, errno: lastError)
    }

    /// Sets TCP_QUICKACK, which Linux does not keep set: called after every read.
    @Sendable static func rearmQuickAck(_ fd: Int32) {
        SocketSupport.setOption(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, 1)
    }
}
