import BlueproofSpark
import Testing

/// Streams: named channels, ordered blocks, no progress, closing cancels pending sends, data
/// before the callbacks is ignored (spark-data-transfer-readme.md "Streams", "Receiving Data").
@Suite("Spark streams")
struct SparkStreamTests {
    static let a: UInt64 = 100, b: UInt64 = 200

    static func net() -> SparkNet {
        let net = SparkNet()
        net.add(a, knows: [b])
        net.add(b, knows: [a])
        return net
    }

    @Test("createDataChannel gives an id sends use; blocks arrive in order typed as stream; send done with no progress (SPK/STRM/BV-01, BV-02, BV-03)")
    func streamInOrder() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        let channel = try net.on(Self.a) { try $0.createDataChannel(out, description: "HelloWorld Stream") }
        let sends = try (0..<5).map { index in try net.on(Self.a) { try $0.send(Array("block \(index)\n".utf8), toChannel: channel, on: out) } }
        net.pump()
        let sent = net.take(Self.a)
        #expect(sent.first == .channelOpened(out, channel: channel, description: "HelloWorld Stream", by: .local))
        #expect(Array(sent.dropFirst()) == sends.map { .sendProgress(out, send: $0, SparkProgress(fraction: nil, done: true)) })
        let received = net.take(Self.b)
        #expect(received.first == .channelOpened(incoming, channel: channel, description: "HelloWorld Stream", by: .remote))
        #expect(Array(received.dropFirst()) == (0..<5).map { index in
            .dataAvailable(incoming, SparkChannelData(kind: .stream, id: channel, description: "HelloWorld Stream",
                                                      data: Array("block \(index)\n".utf8), progress: nil, transferComplete: false))
        })
    }

    @Test("a block larger than the link's frame goes in order pieces; its send is done once, after the last (SPK/STRM/BV-02)")
    func largeBlockSplits() throws {
        let net = Self.net()
        let (out, _) = try net.connect(Self.a, Self.b)
        let channel = try net.on(Self.a) { try $0.createDataChannel(out, description: "s") }
        _ = net.take(Self.a)
        let block = (0..<200).map { UInt8($0) }
        let send = try net.on(Self.a) { try $0.send(block, toChannel: channel, on: out) }
        net.pump()
        #expect(net.take(Self.a) == [.sendProgress(out, send: send, SparkProgress(fraction: nil, done: true))])
        let pieces = net.take(Self.b).compactMap { event -> [UInt8]? in
            if case .dataAvailable(_, let data) = event { data.data } else { nil }
        }
        #expect(pieces.count == 4 && pieces.joined().elementsEqual(block))
    }

    @Test("closeDataChannel cancels sends still pending; only what left before the close arrives (SPK/STRM/BI-01)")
    func closeCancelsPending() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b)
        let channel = try net.on(Self.a) { try $0.createDataChannel(out, description: "s") }
        net.pump()
        _ = (net.take(Self.a), net.take(Self.b))
        let sends = try (0..<3).map { _ in try net.on(Self.a) { try $0.send([1, 2, 3], toChannel: channel, on: out) } }
        net.pump(budget: 1)
        try net.on(Self.a) { try $0.closeDataChannel(out, channel: channel) }
        net.pump()
        #expect(net.take(Self.a) == [
            .sendProgress(out, send: sends[0], SparkProgress(fraction: nil, done: true)),
            .sendProgress(out, send: sends[1], SparkProgress(fraction: nil, done: false, error: .channelClosed(channel))),
            .sendProgress(out, send: sends[2], SparkProgress(fraction: nil, done: false, error: .channelClosed(channel))),
            .channelClosed(out, channel: channel, by: .local),
        ])
        #expect(net.take(Self.b) == [
            .dataAvailable(incoming, SparkChannelData(kind: .stream, id: channel, description: "s", data: [1, 2, 3], progress: nil, transferComplete: false)),
            .channelClosed(incoming, channel: channel, by: .remote),
        ])
        #expect(throws: SparkError.unknownChannel(channel)) { try net.on(Self.a) { try $0.send([1], toChannel: channel, on: out) } }
    }

    @Test("queued stream bytes past the limit are refused (back-pressure) until the link drains them")
    func backPressure() throws {
        let net = Self.net()
        let (out, _) = try net.connect(Self.a, Self.b)
        let channel = try net.on(Self.a) { try $0.createDataChannel(out, description: "s") }
        let block = [UInt8](repeating: 7, count: SparkLimits.maxQueuedStreamBytes)
        _ = try net.on(Self.a) { try $0.send(block, toChannel: channel, on: out) }
        #expect(throws: SparkError.queueFull(bytes: SparkLimits.maxQueuedStreamBytes + 1, limit: SparkLimits.maxQueuedStreamBytes)) {
            try net.on(Self.a) { try $0.send([1], toChannel: channel, on: out) }
        }
        net.pump(budget: 3)
        _ = try net.on(Self.a) { try $0.send([1], toChannel: channel, on: out) }
    }

    @Test("stream data before the receiving callbacks are set is ignored (SPK/FILE/BI-03)")
    func dataBeforeCallbacksIgnored() throws {
        let net = Self.net()
        let (out, incoming) = try net.connect(Self.a, Self.b, callbacks: false)
        let channel = try net.on(Self.a) { try $0.createDataChannel(out, description: "s") }
        _ = try net.on(Self.a) { try $0.send([1], toChannel: channel, on: out) }
        net.pump()
        #expect(net.take(Self.b) == [
            .channelOpened(incoming, channel: channel, description: "s", by: .remote),
            .ignored(peer: Self.a, .noReceiveCallback(incoming)),
        ])
        try net.on(Self.b) { try $0.setReceiveCallbacks(incoming, data: true, file: false) }
        _ = try net.on(Self.a) { try $0.send([2], toChannel: channel, on: out) }
        net.pump()
        #expect(net.take(Self.b) == [
            .dataAvailable(incoming, SparkChannelData(kind: .stream, id: channel, description: "s", data: [2], progress: nil, transferComplete: false)),
        ])
    }

    @Test("channels need an accepted connection, a description within 255 bytes, and at most 64 per connection")
    func channelBounds() throws {
        let net = Self.net()
        let pending = try net.on(Self.a) { try $0.startDataConnection(to: Self.b) }
        #expect(throws: SparkError.wrongState(pending, .offering)) { try net.on(Self.a) { try $0.createDataChannel(pending, description: "s") } }
        net.pump()
        try net.on(Self.b) { try $0.accept(SparkConnectionID(peer: Self.a, number: pending.number, outgoing: false)) }
        net.pump()
        #expect(throws: SparkError.invalid(.nameTooLong(bytes: 256, limit: 255))) {
            try net.on(Self.a) { try $0.createDataChannel(pending, description: String(repeating: "d", count: 256)) }
        }
        for index in 0..<SparkLimits.maxChannelsPerConnection { _ = try net.on(Self.a) { try $0.createDataChannel(pending, description: "\(index)") } }
        #expect(throws: SparkError.channelLimit(limit: 64)) { try net.on(Self.a) { try $0.createDataChannel(pending, description: "one more") } }
    }
}
