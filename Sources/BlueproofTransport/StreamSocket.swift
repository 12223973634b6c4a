import Glibc

/// A connected stream socket carrying raw bytes, for protocols other than H4 (the DUT control
/// protocol, the transmitter's TCP link). Same reader thread and write path as the HCI
/// transports (`LinkCore`): reads never wait for the consumer, `send` writes every byte or
/// throws, and `close()` frees a sender blocked on a full socket.
///
/// `send` blocks the calling thread while the socket is full; callers send small messages.
public final class StreamSocket: Sendable {
    /// The endpoint in `TransportSpec` form, for messages.
    public let endpoint: String
    /// Bytes as they are read, in order; finishes when the peer closes, throws on a failure.
    public let incoming: AsyncThrowingStream<[UInt8], any Error>
    private let core: LinkCore<RawFraming>

    /// Takes ownership of a connected stream socket.
    init(fd: Int32, endpoint: String) throws(TransportError) {
        let (stream, core) = try LinkCore.open(fd: fd, endpoint: endpoint, writeMode: .socket, framing: RawFraming())
        self.endpoint = endpoint
        self.incoming = stream
        self.core = core
    }

    /// Connects to `tcp:HOST:PORT` or `unix:PATH`.
    public static func connect(to spec: TransportSpec) throws(TransportError) -> StreamSocket {
        let endpoint = spec.description
        switch spec {
        case let .tcp(host, port):
            return try StreamSocket(fd: TCPTransport.connect(host: host, port: port, endpoint: endpoint), endpoint: endpoint)
        case let .unix(path):
            return try StreamSocket(fd: UnixSocketTransport.connect(path: path, endpoint: endpoint), endpoint: endpoint)
        case .hci, .serial:
            throw .invalidSpec(input: endpoint, problem: "a stream socket is tcp:HOST:PORT or unix:PATH")
        }
    }

    deinit { core.close() }

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) throws(TransportError) { try core.send(bytes) }

    /// Closes the socket; `incoming` finishes.
    public func close() { core.close() }
}

/// Passes every read on as it came.
struct RawFraming: LinkFraming {
    static var peerCloseIsFailure: Bool { false }

    mutating func feed(_ bytes: ArraySlice<UInt8>, arrival: Int64, yield: ([UInt8]) -> Void) throws(TransportError) {
        yield(Array(bytes))
    }
}
