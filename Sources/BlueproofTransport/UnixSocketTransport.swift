import Glibc

/// `unix:PATH`: H4 over an AF_UNIX stream socket, as served by `btvirt -s`.
enum UnixSocketTransport {
    static func connect(path: String, endpoint: String) throws(TransportError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { field -> Bool in
            guard pathBytes.count < field.count else { return false }
            field.copyBytes(from: pathBytes)
            return true
        }
        guard fits else { throw .connectFailed(endpoint: endpoint, errno: ENAMETOOLONG) }

        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketSupport.connectedStream(family: AF_UNIX, protocol: 0, to: $0,
                                              length: socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return try connected.mapError { TransportError.connectFailed(endpoint: endpoint, errno: $0.errno) }.get()
    }
}
