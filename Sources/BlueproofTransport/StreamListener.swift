import CBlueproofSystem
import Glibc
import Synchronization

/// A listening stream socket on `tcp:HOST:PORT` (port 0 picks a free one) or `unix:PATH`.
/// A thread blocks in `accept` (through `poll` with a wake pipe, so `close()` ends it) and
/// yields each connection as a `StreamSocket`.
public final class StreamListener: Sendable {
    /// Where peers connect: the bound address, with the port the system chose.
    public let address: TransportSpec
    /// Accepted connections; finishes after `close()`.
    public let connections: AsyncStream<StreamSocket>
    private let fd: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let closed = Mutex(false)
    private let continuation: AsyncStream<StreamSocket>.Continuation

    /// Binds and listens. A `unix:` path that exists is refused unless it is a socket (a stale
    /// one from an earlier run, which is removed).
    public init(listeningOn spec: TransportSpec) throws(TransportError) {
        let endpoint = spec.description
        let (fd, bound) = try Self.bind(spec, endpoint: endpoint)
        var pipeEnds: [Int32] = [-1, -1]
        guard bp_transport_cloexec_pipe(&pipeEnds) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw .io(operation: "pipe2", errno: code)
        }
        (connections, continuation) = AsyncStream.makeStream()
        self.fd = fd
        self.address = bound
        self.wakeRead = pipeEnds[0]
        self.wakeWrite = pipeEnds[1]
        let code = startDetachedThread { self.acceptUntilClosed() }
        guard code == 0 else {
            continuation.finish()
            for descriptor in [fd, pipeEnds[0], pipeEnds[1]] { _ = Glibc.close(descriptor) }
            throw .io(operation: "pthread_create", errno: code)
        }
    }

    /// Stops accepting; connections already accepted stay open.
    public func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWrite, &byte, 1)
        }
    }

    private func acceptUntilClosed() {
        bp_transport_name_thread("bp-accept")
        var watched = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            watched[0].revents = 0
            watched[1].revents = 0
            if poll(&watched, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if watched[1].revents != 0 { break }
            let client = bp_transport_accept(fd)
            guard client >= 0 else { continue }  // EAGAIN, ECONNABORTED: the next poll decides
            if case .tcp = address { SocketSupport.setOption(client, Int32(IPPROTO_TCP), TCP_NODELAY, 1) }
            if let socket = try? StreamSocket(fd: client, endpoint: address.description) {
                continuation.yield(socket)
            }
        }
        _ = Glibc.close(fd)
        if case let .unix(path) = address { unlink(path) }
        _ = Glibc.close(wakeRead)
        _ = Glibc.close(wakeWrite)
        // Last: whoever waits for the end finds the socket closed and its file gone.
        continuation.finish()
    }

    private static func bind(_ spec: TransportSpec, endpoint: String) throws(TransportError) -> (Int32, TransportSpec) {
        switch spec {
        case let .tcp(host, port): try bindTCP(host: host, port: port, endpoint: endpoint)
        case let .unix(path): (try bindUnix(path: path, endpoint: endpoint), spec)
        case .hci, .serial: throw .invalidSpec(input: endpoint, problem: "a listener is tcp:HOST:PORT or unix:PATH")
        }
    }

    private static func bindTCP(host: String, port: UInt16, endpoint: String) throws(TransportError) -> (Int32, TransportSpec) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = bp_transport_sock_stream()
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let info = list else {
            throw .hostNotFound(host: host, detail: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let fd = bp_transport_stream_socket(info.pointee.ai_family, info.pointee.ai_protocol)
        guard fd >= 0 else { throw .io(operation: "socket for \(endpoint)", errno: errno) }
        SocketSupport.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        guard Glibc.bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(fd, 16) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw .connectFailed(endpoint: endpoint, errno: code)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let boundPort: UInt16 = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            if Int32(pointer.pointee.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (fd, .tcp(host: host, port: boundPort))
    }

    private static func bindUnix(path: String, endpoint: String) throws(TransportError) -> Int32 {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFSOCK else {
                throw .connectFailed(endpoint: endpoint, errno: EEXIST)
            }
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let fd = bp_transport_stream_socket(AF_UNIX, 0)
        guard fd >= 0 else { throw .io(operation: "socket for \(endpoint)", errno: errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw .connectFailed(endpoint: endpoint, errno: code)
        }
        return fd
    }
}

extension TransportSpec {
    /// Parses where to listen: `tcp:HOST:PORT`, where port 0 asks for a free one, or
    /// `unix:PATH`.
    public init(listening text: String) throws(TransportError) {
        if text.hasPrefix("tcp:"), text.hasSuffix(":0"), case let .tcp(host, _) = try TransportSpec(parsing: String(text.dropLast()) + "1") {
            self = .tcp(host: host, port: 0)
            return
        }
        let spec = try TransportSpec(parsing: text)
        switch spec {
        case .tcp, .unix: self = spec
        case .hci, .serial: throw .invalidSpec(input: text, problem: "a listening address is tcp:HOST:PORT (0 for any free port) or unix:PATH")
        }
    }
}
