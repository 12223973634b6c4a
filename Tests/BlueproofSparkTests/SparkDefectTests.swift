import BlueproofSpark
import Testing

/// Every `SparkDefect` breaks the rule its case checks: the check passes on the reference and
/// fails on the variant (the runner cases of issue 17 will judge the same way).
@Suite("Spark broken variants")
struct SparkDefectTests {
    static let a: UInt64 = 100, b: UInt64 = 200, c: UInt64 = 300

    /// A, B and C know each other; `callee` (B) and `caller` (A) carry the defects.
    static func net(caller: SparkDefects = [], callee: SparkDefects = [], concurrency: SparkConcurrency = .several(limit: 8),
                    keysAtCallee: Bool = true) -> SparkNet {
        let net = SparkNet()
        net.add(a, knows: [b, c], defects: caller)
        net.add(b, knows: keysAtCallee ? [a, c] : [], concurrency: concurrency, defects: callee)
        net.add(c, knows: [a, b])
        return net
    }

    /// SPK/CONN/BI-01: after B declines, A reports the connection ended with `declined`.
    static func declineEndsBothSides(_ net: SparkNet) throws -> Bool {
        let out = try net.on(a) { try $0.startDataConnection(to: b) }
        net.pump()
        try net.on(b) { try $0.decline(SparkConnectionID(peer: a, number: out.number, outgoing: false)) }
        net.pump()
        return net.take(a).last == .ended(out, .declined, by: .remote) && net.cores[a]?.state(of: out) == nil
    }

    /// SPK/CONN/BI-02: a single-connection B ends C's offer while it holds A's connection.
    static func secondOfferEnded(_ net: SparkNet) throws -> Bool {
        _ = try net.connect(a, b)
        let second = try net.on(c) { try $0.startDataConnection(to: b) }
        net.pump()
        return net.take(c).last == .ended(second, .busy, by: .remote)
    }

    /// SPK/CONN/BI-03: B holding no key for A ends A's offer with the key error.
    static func keyErrorAtCallee(_ net: SparkNet) throws -> Bool {
        let out = try net.on(a) { try $0.startDataConnection(to: b) }
        net.pump()
        return net.take(a).last == .ended(out, .keyError, by: .remote)
    }

    /// SPK/CONN/BI-04: 4097 bytes of metadata are refused with `metadataTooLarge`.
    static func metadataRefused(_ net: SparkNet) -> Bool {
        do {
            _ = try net.on(a) { try $0.startDataConnection(to: b, metadata: String(repeating: "m", count: 4097)) }
            return false
        } catch {
            return error as? SparkError == .metadataTooLarge(bytes: 4097, limit: 4096)
        }
    }

    /// SPK/STRM/BI-01: a send still queued at closeDataChannel is cancelled, never done, and
    /// nothing of it reaches B.
    static func closeCancels(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        let channel = try net.on(a) { try $0.createDataChannel(out, description: "s") }
        let send = try net.on(a) { try $0.send([1], toChannel: channel, on: out) }
        try net.on(a) { try $0.closeDataChannel(out, channel: channel) }
        net.pump()
        let outcome = net.take(a).compactMap { event -> SparkProgress? in
            if case .sendProgress(_, send, let progress) = event { progress } else { nil }
        }
        let streamFrames = net.wire.filter { if case .streamBlock? = (try? SparkEnvelope.decode($0.bytes))?.frame { true } else { false } }
        return outcome == [SparkProgress(fraction: nil, done: false, error: .channelClosed(channel))] && streamFrames.isEmpty
            && !net.take(b).contains { if case .dataAvailable = $0 { true } else { false } }
    }

    /// SPK/FILE/BI-03: a block sent before B set its callbacks is not delivered.
    static func earlyDataIgnored(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b, callbacks: false)
        _ = try net.on(a) { try $0.send([1, 2, 3], description: "d", on: out) }
        net.pump()
        return !net.take(b).contains { if case .dataAvailable = $0 { true } else { false } }
    }

    /// SPK/FILE/BV-01: a 300-byte send reports strictly rising progress before `done`.
    static func progressRises(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        _ = try net.on(a) { try $0.send([UInt8](repeating: 1, count: 300), description: "d", on: out) }
        net.pump()
        let fractions = net.take(a).compactMap { event -> Double? in
            if case .sendProgress(_, _, let progress) = event, !progress.done { progress.fraction } else { nil }
        }
        return fractions.count >= 2 && zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// SPK/FILE/BI-02: a file cut by a lost link is reported failed, with no path.
    static func partialNeverComplete(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        net.files[a]?.put([UInt8](repeating: 4, count: 1000), at: "f")
        _ = try net.on(a) { try $0.sendFile("f", on: out) }
        net.pump(budget: 6)
        net.on(b) { $0.linkLost(a) }
        return !net.take(b).contains { if case .fileAvailable(_, let file) = $0 { file.transferComplete || file.path != nil } else { false } }
    }

    /// SPK/FILE/BV-04: a file whose bytes were altered on the way is never reported complete.
    static func digestChecked(_ net: SparkNet) throws -> Bool {
        let (out, _) = try net.connect(a, b)
        net.files[a]?.put([UInt8](repeating: 4, count: 100), at: "f")
        _ = try net.on(a) { try $0.sendFile("f", on: out) }
        net.corruptChunks(of: out)
        net.pump()
        return !net.take(b).contains { if case .fileAvailable(_, let file) = $0 { file.transferComplete } else { false } }
    }

    @Test("declineTakenAsAccept fails SPK/CONN/BI-01")
    func declineDefect() throws {
        #expect(try Self.declineEndsBothSides(Self.net()))
        #expect(try !Self.declineEndsBothSides(Self.net(caller: .declineTakenAsAccept)))
    }

    @Test("secondOfferKept fails SPK/CONN/BI-02")
    func secondOfferDefect() throws {
        #expect(try Self.secondOfferEnded(Self.net(concurrency: .single)))
        #expect(try !Self.secondOfferEnded(Self.net(callee: .secondOfferKept, concurrency: .single)))
    }

    @Test("keyUnchecked fails SPK/CONN/BI-03")
    func keyDefect() throws {
        #expect(try Self.keyErrorAtCallee(Self.net(keysAtCallee: false)))
        #expect(try !Self.keyErrorAtCallee(Self.net(callee: .keyUnchecked, keysAtCallee: false)))
    }

    @Test("metadataUnbounded fails SPK/CONN/BI-04")
    func metadataDefect() {
        #expect(Self.metadataRefused(Self.net()))
        #expect(!Self.metadataRefused(Self.net(caller: .metadataUnbounded)))
    }

    @Test("closeKeepsPending fails SPK/STRM/BI-01")
    func closeDefect() throws {
        #expect(try Self.closeCancels(Self.net()))
        #expect(try !Self.closeCancels(Self.net(caller: .closeKeepsPending)))
    }

    @Test("deliversBeforeCallbacks fails SPK/FILE/BI-03")
    func earlyDataDefect() throws {
        #expect(try Self.earlyDataIgnored(Self.net()))
        #expect(try !Self.earlyDataIgnored(Self.net(callee: .deliversBeforeCallbacks)))
    }

    @Test("progressSkipped and progressBackwards fail SPK/FILE/BV-01")
    func progressDefects() throws {
        #expect(try Self.progressRises(Self.net()))
        #expect(try !Self.progressRises(Self.net(caller: .progressSkipped)))
        #expect(try !Self.progressRises(Self.net(caller: .progressBackwards)))
    }

    @Test("completeOnLinkLoss fails SPK/FILE/BI-02")
    func linkLossDefect() throws {
        #expect(try Self.partialNeverComplete(Self.net()))
        #expect(try !Self.partialNeverComplete(Self.net(callee: .completeOnLinkLoss)))
    }

    @Test("digestUnchecked fails SPK/FILE/BV-04")
    func digestDefect() throws {
        #expect(try Self.digestChecked(Self.net()))
        #expect(try !Self.digestChecked(Self.net(callee: .digestUnchecked)))
    }
}
