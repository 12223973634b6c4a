import BlueproofSpark
import Testing

/// Untrusted frames into a live core: recorded frames of a real exchange, mutated, replayed
/// out of order and duplicated, never trap and never grow the core past its connection limit.
@Suite("Spark core under hostile input")
struct SparkCoreFuzzTests {
    @Test("mutated and replayed frames never trap; the core stays within its connection limit and leaves nothing queued")
    func hostileFrames() async throws {
        let net = SparkNet()
        net.add(100, knows: [200])
        net.add(200, knows: [100], acceptance: .automatic)
        let (out, _) = try net.connect(100, 200)
        let channel = try net.on(100) { try $0.createDataChannel(out, description: "s") }
        _ = try net.on(100) { try $0.send([1, 2, 3], toChannel: channel, on: out) }
        _ = try net.on(100) { try $0.send((0..<300).map { UInt8(truncatingIfNeeded: $0) }, description: "d", on: out) }
        net.files[100]?.put([7, 7, 7], at: "f")
        _ = try net.on(100) { try $0.sendFile("f", on: out) }
        net.pump()
        let recorded = net.wire.filter { $0.from == 100 }.map(\.bytes)
        #expect(recorded.count > 5)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20_000 {
            if round % 500 == 0 { await Task.yield() }  // a long loop: leave the test pool to others now and then
            var bytes = recorded[round % recorded.count]
            if round % 3 != 0 {
                for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            net.cores[200]?.receive(bytes, from: 100)
            while net.cores[200]?.nextFrame(for: 100) != nil {}
            _ = net.cores[200]?.takeEvents()
        }
        let core = try #require(net.cores[200])
        #expect(core.liveConnections.count <= SparkLimits.maxConnections)
        #expect(core.pendingPeers.isEmpty)
    }
}
