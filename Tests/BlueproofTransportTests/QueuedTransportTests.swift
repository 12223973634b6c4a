import BlueproofWire
import Glibc
import Testing
@testable import BlueproofTransport

@Suite("QueuedTransport", .timeLimit(.minutes(5)))
struct QueuedTransportTests {
    static let data = HCIACLPacket(handle: 0x40, packetBoundary: .firstFlushable, data: [UInt8](repeating: 0x5A, count: 100)).packet

    /// A socket pair: the link on one end, the other end returned (the caller closes it).
    static func pair() throws -> (link: FileDescriptorLink, peer: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (try FileDescriptorLink(fd: ends[0], endpoint: "socketpair", writeMode: .socket, capture: nil), ends[1])
    }

    @Test("packets arrive in order; sends never wait; past the limit the link is closed and every send says why, naming the limit")
    func orderAndLimit() async throws {
        let (link, peer) = try Self.pair()
        defer { _ = Glibc.close(peer) }
        let queued = QueuedTransport(link, limit: .init(packets: 8, bytes: 1 << 20))
        for _ in 0..<3 { try queued.send(Self.data) }
        #expect(await queued.drained())
        var got = [UInt8](repeating: 0, count: 3 * Self.data.h4Bytes.count)
        var offset = 0
        while offset < got.count {
            let count = got.withUnsafeMutableBytes { recv(peer, $0.baseAddress! + offset, $0.count - offset, 0) }
            try #require(count > 0)
            offset += count
        }
        #expect(got == Array([[UInt8]](repeating: Self.data.h4Bytes, count: 3).joined()))

        // The peer stops reading: the socket fills, then the queue.
        let full = TransportError.backlogFull(endpoint: "socketpair", packets: 8, bytes: 1 << 20)
        var refusal: TransportError?
        for _ in 0..<100_000 {
            do throws(TransportError) { try queued.send(Self.data) } catch {
                refusal = error
                break
            }
        }
        #expect(refusal == full)
        #expect(throws: full) { try queued.send(Self.data) }
        #expect(await queued.writerEnded(), "the writer, blocked on the full socket, was freed by the overflow")
    }

    @Test("a peer that went away: later sends throw why the link ended")
    func peerGone() async throws {
        let (link, peer) = try Self.pair()
        let queued = QueuedTransport(link)
        _ = Glibc.close(peer)
        var ended: TransportError?
        for _ in 0..<1000 where ended == nil {
            do throws(TransportError) { try queued.send(Self.data) } catch { ended = error }
            _ = await queued.drained()
        }
        #expect(ended == .closedByPeer)
    }
}
