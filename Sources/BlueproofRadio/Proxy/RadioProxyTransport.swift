import BlueproofTransport
import BlueproofWire

/// One node's link to its controller as the host sees it through the radio proxy: packets
/// either way pass through the node's ``RadioWorld``, which rewrites, holds, drops or adds
/// some of them. Made by ``RadioWorld/attach(node:to:address:)``.
public struct RadioProxyTransport: HCITransport {
    let world: RadioWorld
    public let node: Int
    /// The real link underneath, behind its writer queue.
    public let inner: QueuedTransport
    public let inbound: AsyncThrowingStream<H4Packet, any Error>

    /// The real link's endpoint: the proxy adds no place of its own.
    public var endpoint: String { inner.endpoint }

    public func send(_ packet: H4Packet) throws(TransportError) {
        try world.send(packet, from: node)
    }

    public func close() { inner.close() }
}
