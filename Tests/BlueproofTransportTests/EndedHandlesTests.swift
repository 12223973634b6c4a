import BlueproofWire
import Testing
@testable import BlueproofTransport

/// The host's transport never sends, nor records, data on a handle whose Disconnection
/// Complete it has read (the race behind CAP/CONN/BV-01 failures of our own host).
@Suite("Ended handles")
struct EndedHandlesTests {
    /// Disconnection Complete (Vol 4, Part E §7.7.5): status, handle, reason.
    static func disconnection(_ handle: UInt16, status: UInt8 = 0) -> H4Packet {
        H4Packet(type: .event, payload: [0x05, 4, status, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x13])
    }

    /// LE Connection Complete (Vol 4, Part E §7.7.65.1) for `handle`, as central.
    static func connectionComplete(_ handle: UInt16) -> H4Packet {
        H4Packet(type: .event, payload: [0x3E, 19, 0x01, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, 0x00,
                                         1, 2, 3, 4, 5, 6, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
    }

    static func data(_ handle: UInt16) -> H4Packet {
        HCIACLPacket(handle: handle, packetBoundary: .firstNonFlushable, broadcast: .pointToPoint,
                     data: [0x03, 0x00, 0x04, 0x00, 0x52, 0x2A, 0x00, 0x01]).packet
    }

    @Test("data is admitted until the handle's Disconnection Complete, then refused; other handles and commands pass")
    func endsOnDisconnection() {
        var ended = EndedHandles()
        #expect(ended.admits(sent: Self.data(0x0040)))
        ended.observe(received: Self.disconnection(0x0040))
        #expect(!ended.admits(sent: Self.data(0x0040)))
        #expect(ended.admits(sent: Self.data(0x0041)))
        #expect(ended.admits(sent: H4Packet(type: .command, payload: [0x03, 0x0C, 0x00])))
    }

    @Test("a failed disconnection ends nothing; a malformed event is ignored")
    func failedOrMalformed() {
        var ended = EndedHandles()
        ended.observe(received: Self.disconnection(0x0040, status: 0x0C))
        ended.observe(received: H4Packet(type: .event, payload: [0x05, 4, 0x00]))
        ended.observe(received: H4Packet(type: .event, payload: []))
        #expect(ended.admits(sent: Self.data(0x0040)))
    }

    @Test("a connection complete that reuses the handle makes it live again")
    func reusedHandle() {
        var ended = EndedHandles()
        ended.observe(received: Self.disconnection(0x0040))
        ended.observe(received: Self.connectionComplete(0x0040))
        #expect(ended.admits(sent: Self.data(0x0040)))
    }

    @Test("on a link: once the reader has the Disconnection Complete, data on that handle is neither written nor captured",
          arguments: FakeListener.Kind.allCases)
    func linkDiscardsDataOnEndedHandle(kind: FakeListener.Kind) async throws {
        let listener = try FakeListener(kind)
        let sink = RecordingSink()
        let transport = try openTransport(listener.spec, capture: sink)
        defer { transport.close() }
        let peer = try listener.accept()

        try transport.send(Self.data(0x0040))
        #expect(try peer.read(Self.data(0x0040).h4Bytes.count) == Self.data(0x0040).h4Bytes)
        try peer.write(Self.disconnection(0x0040).h4Bytes)
        // The stream yields an event only after the link has recorded and noted it.
        #expect(try await take(1, from: transport.inbound) == [Self.disconnection(0x0040)])

        try transport.send(Self.data(0x0040))
        try transport.send(resetCommand)
        // The reset is the next thing the controller reads: the data never left.
        #expect(try peer.read(resetCommand.h4Bytes.count) == resetCommand.h4Bytes)
        let order = sink.all.map { "\($0.direction.rawValue) \($0.packet.type == .acl ? "data" : "other")" }
        #expect(order == ["sent data", "received other", "sent other"])
    }
}
