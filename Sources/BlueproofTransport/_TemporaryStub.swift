// TEMPORARY: replaced by the transport branch at merge.
import BlueproofWire
import BlueproofCapture
public protocol HCITransport: Sendable {
    var endpoint: String { get }
    var inbound: AsyncThrowingStream<H4Packet, any Error> { get }
    func send(_ packet: H4Packet) throws(TransportError)
    func close()
}
public enum TransportError: Error, Hashable, Sendable { case invalidSpec(String) }
public enum TransportSpec: Hashable, Sendable {
    case unix(path: String)
    case tcp(host: String, port: UInt16)
    public init(parsing text: String) throws(TransportError) { throw .invalidSpec(text) }
}
public func openTransport(_ spec: TransportSpec, capture: (any CaptureSink)?) throws(TransportError) -> any HCITransport {
    throw .invalidSpec("stub")
}
