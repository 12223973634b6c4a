import BlueproofTransport
import BlueproofWire
import Synchronization

/// An in-memory controller link: records what the host side sends and lets the test inject
/// what the controller says.
final class FakeController: HCITransport, Sendable {
    let endpoint = "fake:"
    let inbound: AsyncThrowingStream<H4Packet, any Error>
    private let toHost: AsyncThrowingStream<H4Packet, any Error>.Continuation
    /// Every packet sent to this controller, in order, as a stream for waiting on.
    let sentStream: AsyncStream<H4Packet>
    private let sentContinuation: AsyncStream<H4Packet>.Continuation
    private let record = Mutex<[H4Packet]>([])

    init() {
        (inbound, toHost) = AsyncThrowingStream.makeStream(of: H4Packet.self, throwing: (any Error).self)
        (sentStream, sentContinuation) = AsyncStream.makeStream(of: H4Packet.self)
    }

    var sent: [H4Packet] { record.withLock { $0 } }

    func send(_ packet: H4Packet) throws(TransportError) {
        record.withLock { $0.append(packet) }
        sentContinuation.yield(packet)
    }

    func close() { toHost.finish() }

    func inject(_ event: HCIEvent) { toHost.yield(event.packet.packet) }
    func inject(_ packet: H4Packet) { toHost.yield(packet) }

    /// A marker event (an unknown code the proxy passes as it is) to tell when everything
    /// injected before it has been handled.
    func injectMarker(_ value: UInt8) { inject(.unknown(code: 0xFE, parameters: [value])) }
}

/// The host's end of a proxied link: reads events in order.
struct HostEnd {
    let transport: any HCITransport
    var iterator: AsyncThrowingStream<H4Packet, any Error>.AsyncIterator

    init(_ transport: any HCITransport) {
        self.transport = transport
        iterator = transport.inbound.makeAsyncIterator()
    }

    mutating func next() async throws -> HCIEvent {
        guard let packet = try await iterator.next() else { throw EndOfStream() }
        return try HCIEvent(payload: packet.payload)
    }

    /// The events before marker `value`.
    mutating func until(marker value: UInt8) async throws -> [HCIEvent] {
        var events: [HCIEvent] = []
        while true {
            let event = try await next()
            if case .unknown(0xFE, [value]) = event { return events }
            events.append(event)
        }
    }

    func send<C: HCICommand>(_ command: C) throws { try transport.send(command.packet) }
}

struct EndOfStream: Error {}

extension FakeController {
    /// The next packet the proxy sends to this controller, from `iterator`.
    static func next(_ iterator: inout AsyncStream<H4Packet>.AsyncIterator) async throws -> HCICommandPacket {
        guard let packet = await iterator.next() else { throw EndOfStream() }
        return try HCICommandPacket(payload: packet.payload)
    }
}
