import BlueproofCapture
import BlueproofWire
import Synchronization

/// Serves one controller link to a host stack in another process: an H4 server on
/// `tcp:127.0.0.1:PORT` or `unix:PATH` (docs/dut.md). Whatever the connected host writes is cut
/// into H4 packets and sent to `transport`; whatever `transport` yields is written back. One
/// host at a time: a second connection waits until the first closes, so a stack that
/// restarts (a process per transfer) gets the same controller again.
///
/// Every packet either way is recorded to `capture` (the host's side of the link: what it
/// sent and what it was told) and shown to `observe` before it is passed on. Data the host
/// sends on a handle whose Disconnection Complete already crossed is dropped, neither sent nor
/// recorded, as our own transports do (``EndedHandles``: the crossing is a race inherent to
/// HCI, not the host's fault), and counted in ``discardedOnEndedHandles``. A host whose
/// bytes are not an H4 stream is disconnected with the error reported to `onError`; the
/// controller link stays open for the next connection.
public final class HCIBridge: Sendable {
    /// Where the host connects.
    public let address: TransportSpec
    private let listener: StreamListener
    private let transport: any HCITransport
    private let capture: (any CaptureSink)?
    private let observe: @Sendable (CaptureDirection, H4Packet) -> Void
    private let onError: @Sendable (String) -> Void
    private let client = Mutex<StreamSocket?>(nil)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let ended = Mutex((handles: EndedHandles(), discarded: 0))

    /// Data packets from the host dropped because their handle had ended.
    public var discardedOnEndedHandles: Int { ended.withLock { $0.discarded } }

    /// Listens on `spec` (`tcp:127.0.0.1:0` picks a free port) and starts serving `transport`.
    public init(listeningOn spec: TransportSpec, transport: any HCITransport, capture: (any CaptureSink)?,
                observe: @escaping @Sendable (CaptureDirection, H4Packet) -> Void = { _, _ in },
                onError: @escaping @Sendable (String) -> Void = { _ in }) throws(TransportError) {
        listener = try StreamListener(listeningOn: spec)
        address = listener.address
        self.transport = transport
        self.capture = capture
        self.observe = observe
        self.onError = onError
        let toHost = Task { [self] in await self.forwardControllerPackets() }
        let accept = Task { [self] in await self.serveConnections() }
        tasks.withLock { $0 = [toHost, accept] }
    }

    deinit { close() }

    /// Stops listening and disconnects the host; the controller link is the caller's to close.
    public func close() {
        listener.close()
        client.withLock { socket in
            socket?.close()
            socket = nil
        }
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// Packets from the controller go to the connected host; with none connected they are
    /// recorded and dropped (a host that connects later starts with HCI Reset).
    private func forwardControllerPackets() async {
        do {
            for try await packet in transport.inbound {
                ended.withLock { state in
                    state.handles.observe(received: packet)
                    record(.received, packet)
                }
                observe(.received, packet)
                let socket = client.withLock { $0 }
                try? socket?.send(packet.h4Bytes)
            }
        } catch {
            onError("the controller link ended: \(error)")
        }
        client.withLock { $0?.close() }
    }

    private func serveConnections() async {
        for await socket in listener.connections {
            client.withLock { $0 = socket }
            await forwardHostPackets(from: socket)
            client.withLock { current in
                if current === socket { current = nil }
            }
            socket.close()
        }
    }

    /// Cuts what the host writes into H4 packets and sends each to the controller.
    private func forwardHostPackets(from socket: StreamSocket) async {
        var deframer = H4Deframer()
        do {
            for try await bytes in socket.incoming {
                deframer.append(bytes)
                while let packet = try deframer.next() {
                    let admitted = ended.withLock { state in
                        guard state.handles.admits(sent: packet) else {
                            state.discarded += 1
                            return false
                        }
                        record(.sent, packet)
                        return true
                    }
                    guard admitted else { continue }
                    observe(.sent, packet)
                    try transport.send(packet)
                }
            }
        } catch {
            onError("the host on \(address) was disconnected: \(error)")
        }
    }

    private func record(_ direction: CaptureDirection, _ packet: H4Packet) {
        capture?.record(CaptureRecord(timestampMicros: wallClockMicros(), direction: direction, packet: packet))
    }
}
