import BlueproofAsync
@testable import BlueproofRadio
import BlueproofTestSupport
@testable import BlueproofTransport
import BlueproofWire
import Glibc
import Testing

@Suite("Radio proxy: a controller that stops reading", .timeLimit(.minutes(5)))
struct RadioProxyStallTests {
    typealias Bench = ProxyBench

    /// What a run of sends ended with: how many were taken, and the refusal.
    struct Refusal: Sendable {
        var accepted: Int
        var error: TransportError?
    }

    @Test("a controller that stops reading faults its own link, naming the limit; no send waits and the other node goes on")
    func stalledController() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { _ = Glibc.close(ends[1]) }  // the controller's end: never read
        let stalled = try FileDescriptorLink(fd: ends[0], endpoint: "socketpair:stalled", writeMode: .socket, capture: nil)
        let other = FakeController()
        let world = RadioWorld(scenario: RadioScenario(model: RadioModel()), clock: ManualClock(), reemitBacklog: nil)
        let host0 = world.attach(node: 0, to: stalled, address: Bench.addresses[0])
        var host1 = HostEnd(world.attach(node: 1, to: other, address: Bench.addresses[1]))

        // 10 MB of ACL data, far past the socket's buffers and the queue's limit. The sends run
        // on a thread of the pool: one that waited for the controller would hold it for good.
        let data = HCIACLPacket(handle: 0x40, packetBoundary: .firstFlushable, data: [UInt8](repeating: 0x5A, count: 1000)).packet
        let outcome = Watched<Refusal?>(nil)
        Task.detached {
            var refusal = Refusal(accepted: 0)
            for _ in 0..<10_000 {
                do throws(TransportError) { try host0.send(data) } catch {
                    refusal.error = error
                    break
                }
                refusal.accepted += 1
            }
            outcome.update { $0 = refusal }
        }
        let refusal = try #require(await outcome.wait(within: .seconds(20)) { $0 != nil } ?? nil,
                                   "the host's sends to a controller that does not read never returned")
        let limit = QueuedTransport.Limit.standard
        let expected = TransportError.backlogFull(endpoint: "socketpair:stalled", packets: limit.packets, bytes: limit.bytes)
        #expect(refusal.error == expected, "after \(refusal.accepted) packets")
        #expect("\(expected)".contains("1024 packets or 1048576 bytes"))
        #expect(throws: expected) { try host0.send(data) }
        #expect(world.faultLog.map(\.kind) == [.linkFaulted])
        #expect(world.faultLog.first?.node == 0)
        await #expect(throws: expected) { for try await _ in host0.inbound {} }

        // The other node's link is untouched: both ways still pass.
        try host1.send(HCILESetScanEnable(scanEnable: true))
        other.injectMarker(7)
        #expect(try await host1.until(marker: 7).isEmpty)
        #expect(await world.drained())
        #expect(other.sent == [HCILESetScanEnable(scanEnable: true).packet])
    }
}
