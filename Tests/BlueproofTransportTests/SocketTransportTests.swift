import BlueproofCapture
import BlueproofWire
import Glibc
import Synchronization
import Testing
@testable import BlueproofTransport

/// unix: and tcp: against a listening socket the test owns; the test plays the controller.
@Suite("Socket transports")
struct SocketTransportTests {
    @Test("packets arrive intact and in order, whatever the splits; capture sees both directions",
          arguments: FakeListener.Kind.allCases)
    func roundTrip(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let sink = RecordingSink()
        let transport = try openTransport(listener.spec, capture: sink)
        defer { transport.close() }
        #expect(transport.endpoint == listener.spec.description)
        let peer = try listener.accept()

        let incoming = [
            commandComplete(0x0C03),
            acl(Array(0..<200)),
            H4Packet(type: .event, payload: [0x3E, 0x00]),
            acl([]),
            commandComplete(0x2001),
        ]
        let bytes = incoming.flatMap(\.h4Bytes)
        // Odd splits: a lone indicator, a split header, a split length, the rest.
        var offset = 0
        for size in [1, 2, 3, 1, 5, 7, 100, 3] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            try peer.write(Array(bytes[offset..<end]))
            offset = end
        }
        try peer.write(Array(bytes[offset...]))
        #expect(try await take(incoming.count, from: transport.inbound) == incoming)

        try transport.send(resetCommand)
        let big = acl(Array(repeating: 0xA5, count: 1000))
        try transport.send(big)
        #expect(try peer.read(resetCommand.h4Bytes.count + big.h4Bytes.count) == resetCommand.h4Bytes + big.h4Bytes)

        let records = sink.all
        #expect(records.filter { $0.direction == .received }.map(\.packet) == incoming)
        #expect(records.filter { $0.direction == .sent }.map(\.packet) == [resetCommand, big])
        #expect(records.allSatisfy { $0.timestampMicros > 1_600_000_000_000_000 })
        let received = records.filter { $0.direction == .received }.map(\.timestampMicros)
        #expect(received == received.sorted())
    }

    @Test("a tap sees every packet on the reader thread before the stream yields it, and may send",
          arguments: FakeListener.Kind.allCases)
    func tap(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let transport = try openTransport(listener.spec, capture: nil)
        defer { transport.close() }
        let peer = try listener.accept()
        let tapped = Mutex<[H4Packet]>([])
        // The tap answers every ACL packet at once, from the reader thread.
        #expect(transport.tapInbound { packet in
            tapped.withLock { $0.append(packet) }
            if packet.type == .acl { try? transport.send(commandComplete(0x0C03)) }
        })
        // Few enough that the answers fit the socket unread (as the ACL flow keeps what it
        // writes from the reader thread within the controller's buffers).
        let incoming = (0..<100).map { acl([UInt8($0)]) }
        try peer.write(incoming.flatMap(\.h4Bytes))
        // Each packet the stream yields has been tapped already, in the same order.
        var yielded: [H4Packet] = []
        var tappedFirst = true
        for try await packet in transport.inbound {
            yielded.append(packet)
            tappedFirst = tappedFirst && tapped.withLock { $0.count >= yielded.count && $0[yielded.count - 1] == packet }
            if yielded.count == incoming.count { break }
        }
        #expect(yielded == incoming)
        #expect(tappedFirst)
        #expect(tapped.withLock { $0 } == incoming)
        // A second tap is refused; the first stays.
        #expect(!transport.tapInbound { _ in })
        let answer = commandComplete(0x0C03).h4Bytes
        #expect(try peer.read(answer.count * incoming.count) == Array([[UInt8]](repeating: answer, count: incoming.count).joined()))
    }

    @Test("the peer closing ends the stream with closedByPeer, and send reports it",
          arguments: FakeListener.Kind.allCases)
    func peerCloses(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let transport = try openTransport(listener.spec, capture: nil)
        defer { transport.close() }
        let peer = try listener.accept()
        try peer.write(commandComplete(0x0C03).h4Bytes)
        peer.close()

        let (packets, error) = try await drain(transport.inbound)
        #expect(packets == [commandComplete(0x0C03)])
        #expect(error == .closedByPeer)
        #expect(throws: TransportError.closedByPeer) { try transport.send(resetCommand) }
    }

    @Test("a bad packet indicator ends the stream with malformedStream after the good packets",
          arguments: FakeListener.Kind.allCases)
    func malformed(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let transport = try openTransport(listener.spec, capture: nil)
        defer { transport.close() }
        let peer = try listener.accept()
        try peer.write(commandComplete(0x0C03).h4Bytes + [0xFF, 0x01, 0x02])

        let (packets, error) = try await drain(transport.inbound)
        #expect(packets == [commandComplete(0x0C03)])
        #expect(error == .malformedStream(WireError(offset: 7, context: "H4 stream", reason: .unknownPacketType(0xFF))))
        // The reader closed the link: the peer sees it, and send reports why.
        #expect(try peer.seesEndOfFile())
        #expect(throws: TransportError.malformedStream(
            WireError(offset: 7, context: "H4 stream", reason: .unknownPacketType(0xFF)))) {
            try transport.send(resetCommand)
        }
    }

    @Test("close() ends the stream normally, is idempotent, releases the socket; send then throws",
          arguments: FakeListener.Kind.allCases)
    func closeEndsStream(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let transport = try openTransport(listener.spec, capture: nil)
        let peer = try listener.accept()
        try peer.write(commandComplete(0x0C03).h4Bytes)
        #expect(try await take(1, from: transport.inbound) == [commandComplete(0x0C03)])

        transport.close()
        transport.close()
        let (packets, error) = try await drain(transport.inbound)
        #expect(packets.isEmpty)
        #expect(error == nil)
        transport.close()
        #expect(throws: TransportError.closed) { try transport.send(resetCommand) }
        #expect(try peer.seesEndOfFile())
    }

    @Test("close() wakes a consumer that is waiting for a packet", arguments: FakeListener.Kind.allCases)
    func closeWakesWaitingConsumer(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let transport = try openTransport(listener.spec, capture: nil)
        let peer = try listener.accept()
        let stream = transport.inbound
        let ending = Task { try await drain(stream) }
        // The consumer may or may not be suspended yet; either way the stream must end cleanly.
        transport.close()
        let (packets, error) = try await ending.value
        #expect(packets.isEmpty)
        #expect(error == nil)
        _ = peer
    }

    @Test("a burst of 10,000 packets written before anyone reads arrives complete and in order",
          arguments: FakeListener.Kind.allCases)
    func burstWhileConsumerIsAway(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let sink = RecordingSink()
        let transport = try openTransport(listener.spec, capture: sink)
        defer { transport.close() }
        let peer = try listener.accept()

        // About 1.3 MB, several times any socket buffer: the writer only finishes if the
        // transport keeps reading while nobody consumes the stream.
        let count = 10_000
        let packets = (0..<count).map { index -> H4Packet in
            let tag = [UInt8(index & 0xFF), UInt8(index >> 8)]
            return index % 3 == 0
                ? H4Packet(type: .event, payload: [0xFF, 2] + tag)
                : acl(tag + Array(repeating: UInt8(index % 251), count: 100 + index % 150))
        }
        var batch: [UInt8] = []
        for packet in packets {
            batch += packet.h4Bytes
            if batch.count > 60_000 {
                try peer.write(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try peer.write(batch)

        let arrived = try await take(count, from: transport.inbound)
        #expect(arrived.count == count)
        #expect(arrived == packets)
        #expect(sink.all.count == count)
    }

    @Test("concurrent senders never interleave their packets", arguments: FakeListener.Kind.allCases)
    func concurrentSendersDoNotInterleave(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let transport = try openTransport(listener.spec, capture: nil)
        defer { transport.close() }
        let peer = try listener.accept()

        let senders = 8, perSender = 40
        func packet(_ sender: Int, _ sequence: Int) -> H4Packet {
            acl([UInt8(sender), UInt8(sequence)] + Array(repeating: UInt8(sender), count: 150 + sender))
        }
        // The controller reads on a thread of its own while the senders write: what they send
        // together is more than the socket buffers hold.
        let total = (0..<senders).reduce(0) { $0 + perSender * packet($1, 0).h4Bytes.count }
        let peerFD = peer.fd
        async let received = onOwnThread { try FakePeer.read(total, from: peerFD) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<perSender { try transport.send(packet(sender, sequence)) }
                }
            }
            try await group.waitForAll()
        }

        var deframer = H4Deframer()
        deframer.append(try await received)
        var nextSequence = [Int](repeating: 0, count: senders)
        while let received = try deframer.next() {
            let sender = Int(received.payload[4])
            #expect(received == packet(sender, nextSequence[sender]))
            nextSequence[sender] += 1
        }
        #expect(nextSequence == [Int](repeating: perSender, count: senders))
    }

    @Test("tcp: sets TCP_NODELAY on the socket")
    func tcpNoDelay() throws {
        let listener = try FakeListener(.tcp)
        let transport = try openTransport(listener.spec, capture: nil)
        defer { transport.close() }
        let link = try #require(transport as? FileDescriptorLink)
        var value: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(link.core.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &size) == 0)
        #expect(value == 1)
    }

    @Test("tcp: TCP_QUICKACK is set again after every read")
    func tcpQuickAckRearmed() async throws {
        let listener = try FakeListener(.tcp)
        let transport = try openTransport(listener.spec, capture: nil)
        defer { transport.close() }
        let peer = try listener.accept()
        let link = try #require(transport as? FileDescriptorLink)
        func quickAck() -> Int32 {
            var value: Int32 = -1
            var size = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(link.core.fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &value, &size)
            return value
        }
        #expect(quickAck() == 1)
        // Command/event exchanges put the connection in interactive ("pingpong") mode, which
        // turns quick acks off; the reader turns them on again before yielding each packet.
        for round in 0..<4 {
            try peer.write(commandComplete(0x0C03).h4Bytes)
            #expect(try await take(1, from: transport.inbound) == [commandComplete(0x0C03)])
            #expect(quickAck() == 1, "round \(round)")
            try transport.send(resetCommand)
            _ = try peer.read(resetCommand.h4Bytes.count)
        }
    }

    @Test("a missing unix socket fails to connect with the endpoint and errno")
    func unixConnectFails() {
        let spec = TransportSpec.unix(path: "/tmp/bp-transport-no-such-dir/bt-server-le")
        #expect(throws: TransportError.connectFailed(endpoint: spec.description, errno: ENOENT)) {
            try openTransport(spec, capture: nil)
        }
        let text = TransportError.connectFailed(endpoint: spec.description, errno: ENOENT).description
        #expect(text == "cannot open unix:/tmp/bp-transport-no-such-dir/bt-server-le: No such file or directory (errno 2)")
    }

    @Test("a closed TCP port is refused with the endpoint and errno")
    func tcpConnectRefused() throws {
        let spec: TransportSpec
        do {
            let listener = try FakeListener(.tcp)
            spec = listener.spec
        } // the listener is closed here: nothing listens on that port any more
        #expect(throws: TransportError.connectFailed(endpoint: spec.description, errno: ECONNREFUSED)) {
            try openTransport(spec, capture: nil)
        }
    }
}
