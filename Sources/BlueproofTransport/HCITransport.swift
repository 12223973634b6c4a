import BlueproofCapture
import BlueproofWire

/// A byte link to one HCI controller, carrying H4 packets both ways.
///
/// Every transport reads continuously on its own thread, whatever the consumer of
/// ``inbound`` does: packets wait in an unbounded buffer rather than in the peer's socket,
/// because btvirt silently drops packets when its reader stalls.
public protocol HCITransport: Sendable {
    /// The canonical spec of the link, e.g. `unix:/tmp/bt-server-le` or `tcp:127.0.0.1:6402`.
    var endpoint: String { get }

    /// Packets from the controller, in arrival order, for a single consumer.
    ///
    /// Finishes normally after ``close()``. Finishes by throwing a ``TransportError``:
    /// ``TransportError/closedByPeer`` when the controller closes the link,
    /// ``TransportError/io(operation:errno:)`` on a read error, and
    /// ``TransportError/malformedStream(_:)`` when the bytes are not an H4 stream.
    var inbound: AsyncThrowingStream<H4Packet, any Error> { get }

    /// Writes one whole packet, or throws. Safe from any thread; packets never interleave.
    /// After the link ended it throws why: ``TransportError/closed`` after ``close()``,
    /// otherwise the error that ended ``inbound``.
    func send(_ packet: H4Packet) throws(TransportError)

    /// Ends the link: wakes the reader, finishes ``inbound``, releases the descriptors.
    /// Idempotent.
    func close()

    /// Installs `tap`, which from then on sees every packet from the controller on the reader
    /// thread, in order, before ``inbound`` yields it. A tap may ``send(_:)``, and must not
    /// wait for anything else. Returns false when this transport has no reader thread to call
    /// it from, or already has a tap; the caller then handles packets only as ``inbound``
    /// yields them.
    func tapInbound(_ tap: @escaping @Sendable (H4Packet) -> Void) -> Bool
}

/// An installed ``HCITransport/tapInbound(_:)``, for transports to keep under a lock. Boxed:
/// a closure kept directly in a `Mutex` is rewrapped in a reabstraction thunk each time
/// `withLock` hands it out, so every call would go one thunk deeper.
public final class InboundTap: Sendable {
    public let call: @Sendable (H4Packet) -> Void
    public init(_ call: @escaping @Sendable (H4Packet) -> Void) { self.call = call }
}

extension HCITransport {
    /// No tap: packets reach the consumer only through ``inbound``.
    public func tapInbound(_ tap: @escaping @Sendable (H4Packet) -> Void) -> Bool { false }
}

/// Opens the transport a spec names. Connects synchronously; the returned transport is
/// already reading. Every packet either way is reported to `capture` when given.
public func openTransport(_ spec: TransportSpec, capture: (any CaptureSink)?) throws(TransportError) -> any HCITransport {
    let endpoint = spec.description
    switch spec {
    case let .unix(path):
        let fd = try UnixSocketTransport.connect(path: path, endpoint: endpoint)
        return try FileDescriptorLink(fd: fd, endpoint: endpoint, writeMode: .socket, capture: capture)
    case let .tcp(host, port):
        let fd = try TCPTransport.connect(host: host, port: port, endpoint: endpoint)
        return try FileDescriptorLink(fd: fd, endpoint: endpoint, writeMode: .socket, capture: capture,
                                  afterRead: TCPTransport.rearmQuickAck)
    case let .hci(index):
        let fd = try HCIUserChannelTransport.open(index: index)
        return try FileDescriptorLink(fd: fd, endpoint: endpoint, writeMode: .socket, capture: capture)
    case let .serial(device, baudRate, flowControl):
        let fd = try SerialTransport.open(device: device, baudRate: baudRate, flowControl: flowControl,
                                          endpoint: endpoint)
        return try FileDescriptorLink(fd: fd, endpoint: endpoint, writeMode: .file, capture: capture)
    }
}
