import BlueproofCapture
import BlueproofWire
import Synchronization
import Testing
@testable import BlueproofTransport

/// A controller link played by the test: what the bridge sends is kept, what the test yields
/// comes out of `inbound`.
private final class QueueTransport: HCITransport {
    let endpoint = "test:queue"
    let inbound: AsyncThrowingStream<H4Packet, any Error>
    private let continuation: AsyncThrowingStream<H4Packet, any Error>.Continuation
    private let sentPackets: AsyncStream<H4Packet>
    private let sentContinuation: AsyncStream<H4Packet>.Continuation

    init() {
        (inbound, continuation) = AsyncThrowingStream.makeStream()
        (sentPackets, sentContinuation) = AsyncStream.makeStream()
    }

    func send(_ packet: H4Packet) throws(TransportError) { sentContinuation.yield(packet) }
    func close() { continuation.finish() }
    func fromController(_ packet: H4Packet) { continuation.yield(packet) }

    /// The next packet the bridge sent to the controller.
    func nextSent() async throws -> H4Packet {
        try await within("a packet to the controller") {
            for await packet in self.sentPackets { return packet }
            throw TestFailure("no more packets")
        }
    }
}

@Suite("HCIBridge: a controller link served to a host in another process")
struct HCIBridgeTests {
    static let reset = H4Packet(type: .command, payload: [0x03, 0x0C, 0x00])
    static let resetComplete = H4Packet(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])

    /// The next `count` bytes `socket` reads.
    static func read(_ count: Int, from socket: StreamSocket) async throws -> [UInt8] {
        try await within("\(count) byte(s) from the bridge") {
            var bytes: [UInt8] = []
            for try await chunk in socket.incoming {
                bytes += chunk
                if bytes.count >= count { return bytes }
            }
            throw TestFailure("the bridge closed after \(bytes.count) byte(s)")
        }
    }

    @Test("H4 both ways, split across writes; both directions recorded, the host's as sent")
    func bothWays() async throws {
        let controller = QueueTransport()
        let sink = RecordingSink()
        let bridge = try HCIBridge(listeningOn: .tcp(host: "127.0.0.1", port: 0), transport: controller, capture: sink)
        defer { bridge.close() }
        let host = try StreamSocket.connect(to: bridge.address)
        defer { host.close() }
        // The command in two writes: the bridge reassembles it.
        let bytes = Self.reset.h4Bytes
        try host.send(Array(bytes.prefix(2)))
        try host.send(Array(bytes.dropFirst(2)))
        #expect(try await controller.nextSent() == Self.reset)
        controller.fromController(Self.resetComplete)
        #expect(try await Self.read(Self.resetComplete.h4Bytes.count, from: host) == Self.resetComplete.h4Bytes)
        let directions = sink.all.map(\.direction)
        #expect(directions == [.sent, .received])
        #expect(sink.all.map(\.packet) == [Self.reset, Self.resetComplete])
    }

    @Test("bytes that are not H4 disconnect that host with the reason; the next host is served")
    func malformedThenNext() async throws {
        let controller = QueueTransport()
        let errors = Mutex<[String]>([])
        let bridge = try HCIBridge(listeningOn: .tcp(host: "127.0.0.1", port: 0), transport: controller, capture: nil,
                                   onError: { message in errors.withLock { $0.append(message) } })
        defer { bridge.close() }
        let bad = try StreamSocket.connect(to: bridge.address)
        try bad.send([0x09, 0x00, 0x00])
        let ended = try await within("the bridge to drop the host") { () async throws -> Bool in
            for try await _ in bad.incoming {}
            return true
        }
        #expect(ended)
        #expect(errors.withLock { $0 }.contains { $0.contains("disconnected") })
        let good = try StreamSocket.connect(to: bridge.address)
        defer { good.close() }
        try good.send(Self.reset.h4Bytes)
        #expect(try await controller.nextSent() == Self.reset)
    }
}
