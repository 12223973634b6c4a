import BlueproofTransport
import BlueproofWire
import Logging
import Synchronization
import Testing
@testable import BlueproofHost

/// A transport that keeps what is sent and, when it offers a tap, lets the test play its
/// reader thread.
private final class TapTransport: HCITransport {
    let endpoint = "test:tap"
    let inbound: AsyncThrowingStream<H4Packet, any Error> = AsyncThrowingStream { $0.finish() }
    private let offersTap: Bool
    private let state = Mutex<(sent: [H4Packet], tap: InboundTap?)>(([], nil))

    init(offersTap: Bool) { self.offersTap = offersTap }

    func send(_ packet: H4Packet) throws(TransportError) { state.withLock { $0.sent.append(packet) } }
    func close() {}

    func tapInbound(_ tap: @escaping @Sendable (H4Packet) -> Void) -> Bool {
        guard offersTap else { return false }
        state.withLock { $0.tap = InboundTap(tap) }
        return true
    }

    /// The reader thread reading `packet`.
    func read(_ packet: H4Packet) { state.withLock { $0.tap }?.call(packet) }

    /// The ACL data sent so far: handle and data length of each packet.
    var sentACL: [(handle: UInt16, length: Int)] {
        state.withLock { $0.sent }.compactMap { packet in
            guard packet.type == .acl, let acl = try? HCIACLPacket(payload: packet.payload) else { return nil }
            return (acl.handle, acl.data.count)
        }
    }
}

/// Number Of Completed Packets (§7.7.19) as the controller sends it.
private func completedPackets(_ entries: [(handle: UInt16, count: UInt16)]) -> H4Packet {
    let event = HCINumberOfCompletedPacketsEvent(handles: entries.map {
        HCINumberOfCompletedPacketsEvent.Entry(connectionHandle: $0.handle, numCompletedPackets: $0.count)
    })
    var writer = ByteWriter()
    event.encodeParameters(into: &writer)
    return HCIEventPacket(code: HCINumberOfCompletedPacketsEvent.code, parameters: writer.bytes).packet
}

private func disconnectionComplete(_ handle: UInt16) -> H4Packet {
    HCIEvent.disconnectionComplete(HCIDisconnectionCompleteEvent(
        status: .success, connectionHandle: handle, reason: .remoteUserTerminated)).packet.packet
}

private func leConnectionComplete(_ handle: UInt16) -> H4Packet {
    HCIEvent.le(.connectionComplete(HCILEConnectionCompleteEvent(
        status: .success, connectionHandle: handle, role: .central, peerAddressType: .publicDevice,
        peerAddress: BDAddress(littleEndian: [1, 2, 3, 4, 5, 6]), connectionInterval: LEConnectionInterval(rawValue: 0x18),
        peripheralLatency: 0, supervisionTimeout: LESupervisionTimeout(rawValue: 0x1F4),
        centralClockAccuracy: .ppm50))).packet.packet
}

/// A 60-octet PDU: three fragments of 27, 27 and 6 octets.
private let pdu = [UInt8](repeating: 0x5A, count: 60)

/// A scheduler for one buffer of 27 octets on a transport with a tap (or without), the tap
/// installed, `handles` open and one ``pdu`` sent on each.
private func scheduler(tap: Bool = true, sendingOn handles: [UInt16] = [0x40]) throws -> (TapTransport, ACLScheduler) {
    let transport = TapTransport(offersTap: tap)
    let acl = ACLScheduler(flow: ACLFlow(bufferSize: 27, bufferCount: 1), transport: transport,
                           logger: Logger(label: "test.acl"))
    #expect(acl.tapTransport() == tap)
    #expect(acl.completesOnReaderThread == tap)
    for handle in handles { acl.open(handle: handle) }
    for handle in handles { try acl.send(pdu, on: handle) }
    return (transport, acl)
}

@Suite struct ACLSchedulerTests {
    @Test("on the reader thread a completion writes the next fragment at once, in the flow's order")
    func readerThreadCompletionWrites() throws {
        let (transport, acl) = try scheduler()
        #expect(transport.sentACL.map(\.length) == [27])
        transport.read(completedPackets([(0x40, 1)]))
        #expect(transport.sentACL.map(\.length) == [27, 27])
        transport.read(completedPackets([(0x40, 1)]))
        transport.read(completedPackets([(0x40, 1)]))
        #expect(transport.sentACL.map(\.length) == [27, 27, 6])
        #expect(acl.pdusCompleted(on: 0x40) == 1)
        #expect(acl.takeViolations().isEmpty)
    }

    @Test("other packets on the reader thread change nothing")
    func otherPacketsIgnored() throws {
        let (transport, acl) = try scheduler()
        transport.read(HCIEventPacket(code: 0x0E, parameters: [1, 0x03, 0x0C, 0]).packet)
        // ACL data whose bytes would read as a Number Of Completed Packets for handle 0x40.
        transport.read(H4Packet(type: .acl, payload: [0x13, 5, 1, 0x40, 0, 1, 0]))
        // One with a byte too many: the host's controller would not decode it either.
        transport.read(H4Packet(type: .event, payload: [0x13, 6, 1, 0x40, 0, 1, 0, 0]))
        // A Number Of Completed Packets cut short: not counted, no crash.
        transport.read(H4Packet(type: .event, payload: [0x13, 3, 1, 0x40, 0x00]))
        #expect(transport.sentACL.count == 1)
        #expect(acl.pdusCompleted(on: 0x40) == 0)
    }

    @Test("a held handle's fragments wait and others take the buffer; released, they go on")
    func heldHandles() throws {
        let (transport, acl) = try scheduler(sendingOn: [1, 2])
        #expect(transport.sentACL.map(\.handle) == [1])
        acl.hold(handle: 1)
        transport.read(completedPackets([(1, 1)]))
        transport.read(completedPackets([(2, 1)]))
        transport.read(completedPackets([(2, 1)]))
        #expect(transport.sentACL.map(\.handle) == [1, 2, 2, 2])
        transport.read(completedPackets([(2, 1)]))
        #expect(transport.sentACL.count == 4)
        // A disconnection that failed: handle 1 goes on where it stopped, nothing lost.
        acl.release(handle: 1)
        #expect(transport.sentACL.map(\.handle) == [1, 2, 2, 2, 1])
        #expect(transport.sentACL.filter { $0.handle == 1 }.map(\.length) == [27, 27])
    }

    @Test("once Disconnection Complete is read, the ended connection's fragments never leave; the handle can be opened again")
    func disconnectionReadFirst() throws {
        let (transport, acl) = try scheduler()
        transport.read(disconnectionComplete(0x40))
        // The actor has not handled it yet; the freed buffer must not carry the next fragment.
        transport.read(completedPackets([(0x40, 1)]))
        #expect(transport.sentACL.count == 1)
        acl.close(handle: 0x40)
        acl.open(handle: 0x40)
        try acl.send(pdu, on: 0x40)
        #expect(transport.sentACL.map(\.length) == [27, 27])
        transport.read(completedPackets([(0x40, 1)]))
        #expect(transport.sentACL.map(\.length) == [27, 27, 27])
    }

    @Test("a refused Disconnect does not release a handle whose end the reader thread has read")
    func refusedDisconnectAfterEndRead() throws {
        let (transport, acl) = try scheduler()
        acl.hold(handle: 0x40)
        transport.read(disconnectionComplete(0x40))
        transport.read(completedPackets([(0x40, 1)]))
        acl.release(handle: 0x40)
        #expect(transport.sentACL.count == 1)
        // Once the actor has handled the end, the handle is a new one.
        acl.close(handle: 0x40)
        acl.open(handle: 0x40)
        acl.hold(handle: 0x40)
        try acl.send(pdu, on: 0x40)
        acl.release(handle: 0x40)
        #expect(transport.sentACL.count == 2)
    }

    @Test("an LE Connection Complete that reuses an open handle holds the old connection's fragments; a new handle's holds nothing")
    func reusedHandle() throws {
        let (transport, acl) = try scheduler()
        transport.read(leConnectionComplete(0x40))
        transport.read(completedPackets([(0x40, 1)]))
        #expect(transport.sentACL.count == 1)
        transport.read(leConnectionComplete(0x41))
        acl.open(handle: 0x41)
        try acl.send(pdu, on: 0x41)
        #expect(transport.sentACL.map(\.handle) == [0x40, 0x41])
    }

    @Test("completions beyond what is in flight are kept as violations until taken")
    func violationsKept() throws {
        let (transport, acl) = try scheduler()
        transport.read(completedPackets([(0x40, 3)]))
        transport.read(completedPackets([(0x99, 1)]))
        #expect(acl.takeViolations() == [
            .tooManyCompleted(handle: 0x40, reported: 3, inFlight: 1),
            .completedForUnknownHandle(0x99),
        ])
        #expect(acl.takeViolations().isEmpty)
    }

    @Test("without a tap, completions are the caller's to count")
    func noTap() throws {
        let (transport, acl) = try scheduler(tap: false)
        acl.completed(1, on: 0x40)
        #expect(transport.sentACL.map(\.length) == [27, 27])
    }
}
