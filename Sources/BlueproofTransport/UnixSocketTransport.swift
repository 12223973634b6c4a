import CBlueproofSystem
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

        let fd = bp_transport_stream_socket(AF_UNIX, 0)
        guard fd >= 0 else { throw .connectFailed(endpoint: endpoint, errno: errno) }
        let code = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketSupport.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard code == 0 else {
            Glibc.close(fd)
            throw .connectFailed(endpoint: endpoint, errno: code)
        }
        return fd
    }
}
