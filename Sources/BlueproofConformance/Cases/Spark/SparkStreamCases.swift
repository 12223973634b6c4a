import BlueproofSpark
import BlueproofAsync

/// SPK/STRM: named data channels ("Streams", "Receiving Data").
enum SparkStreamCases {
    static let all: [SparkCase] = [closeCancels, channelUsable, noProgress, typedStream]

    /// The stream blocks tester `index` received on `channel` of `id`, in order.
    static func received(_ tester: SparkTester, _ id: SparkConnectionID, channel: UInt32) -> [UInt8] {
        tester.events.events.flatMap { event -> [UInt8] in
            if case .dataAvailable(id, let data) = event, data.kind == .stream, data.id == channel { data.data } else { [] }
        }
    }

    /// Closing a channel cancels its sends still queued: none completes after the close, each
    /// is reported cancelled, and the peer receives nothing more on the channel. A bystander
    /// channel's send, queued behind them, is not the close's to cancel: it arrives whole.
    static let closeCancels = SparkCase("SPK/STRM/BI-01", brokenBy: [.closeKeepsPending, .closeUnannounced, .streamDoneWhenQueued, .cancelledUnreported,
                                                                    .closeCancelsConnection]) { stage in
        let (out, incoming) = try await stage.subjectSending()
        let tester = stage.testers[0]
        let channel = try await stage.subject.createDataChannel(out, description: "closed with sends pending")
        let bystander = try await stage.subject.createDataChannel(out, description: "open beside it")
        var sends: [UInt64] = []
        let blocks = (0..<4).map { sparkPattern(256 << 10, seed: UInt8($0)) }
        for block in blocks { sends.append(try await stage.subject.send(block, toChannel: channel, on: out)) }
        let besideBlock = sparkPattern(64 << 10, seed: 0xB5)
        let beside = try await stage.subject.send(besideBlock, toChannel: bystander, on: out)
        try await stage.subject.closeDataChannel(out, channel: channel)
        // The barrier: a block on a second channel, queued after the closed channel's sends.
        let barrier = try await stage.subject.createDataChannel(out, description: "after the close")
        let last = try await stage.subject.send([0xB0], toChannel: barrier, on: out)
        _ = try await stage.subjectSend(last, on: out)
        _ = try await stage.expectTester(0, "the block sent after the close") { event -> Bool? in
            if case .dataAvailable(incoming, let data) = event, data.id == barrier { true } else { nil }
        }
        let records = stage.subject.events.records
        guard let closedAt = records.firstIndex(where: { $0.event == .channelClosed(out, channel: channel, by: .local) }) else {
            return .fail("the subject never reported closing the channel")
        }
        var cancelled: Set<UInt64> = []
        for (index, record) in records.enumerated() {
            guard case .sendProgress(out, let send, let progress) = record.event, sends.contains(send) else { continue }
            if progress.done && index > closedAt { return .fail("send \(send) completed after closeDataChannel: its pending blocks still went out") }
            if case .channelClosed(channel)? = progress.error { cancelled.insert(send) }
        }
        // The peer is the judge of what went out: the close reached it, what arrived is the sends'
        // bytes in order, and no send reported cancelled arrived whole (a cancelled send may have
        // left in part before the close).
        guard tester.events.events.contains(.channelClosed(incoming, channel: channel, by: .remote)) else {
            return .fail("the peer never learned that the channel was closed, though a block sent after the close arrived")
        }
        let arrived = received(tester, incoming, channel: channel)
        let sent = blocks.flatMap { $0 }
        guard arrived.count <= sent.count, arrived[...] == sent.prefix(arrived.count) else {
            return .fail("the peer received \(arrived.count) bytes on the channel that are not the sends' bytes in order")
        }
        if let firstCancelled = sends.firstIndex(where: cancelled.contains), arrived.count >= (firstCancelled + 1) * (256 << 10) {
            return .fail("send \(sends[firstCancelled]) was reported cancelled, yet the peer received all its bytes before the close")
        }
        // Each send ends once: done, or cancelled with channelClosed. A send reported done was no
        // longer pending ("ensure you have received callbacks for all calls to send()"), so the
        // close may not drop it: all of it reached the peer.
        if let send = try await stage.firstUnended(sends, on: out) { return .fail("send \(send) never ended: neither done nor cancelled by the close") }
        for (index, send) in sends.enumerated() {
            let ends = stage.subject.events.events.compactMap(SparkStage.end(of: send, on: out))
            guard ends.count == 1 else { return .fail("send \(send) ended \(ends.count) times: \(ends)") }
            if ends[0].done {
                guard arrived.count >= (index + 1) * (256 << 10) else {
                    return .fail("send \(send) was reported done, yet the close dropped it: the peer received \(arrived.count) bytes on the channel, short of the first \(index + 1) send(s)")
                }
            } else if ends[0].error != .channelClosed(channel) {
                return .fail("send \(send) was cancelled with \(ends[0].error.map { "\($0)" } ?? "no error"), not channelClosed")
            }
        }
        let late = tester.events.records.drop { $0.event != .channelClosed(incoming, channel: channel, by: .remote) }.dropFirst().filter { record in
            switch record.event {
            case .dataAvailable(incoming, let data): data.id == channel
            case .ignored(_, .unknownChannel(incoming, channel, kind: SparkStage.streamBlockKind)): true
            default: false
            }
        }
        guard late.isEmpty else { return .fail("the peer received \(late.count) block(s) on the channel after it was closed") }
        let besideEnd = try await stage.subjectSend(beside, on: out).last
        let besideArrived = received(tester, incoming, channel: bystander)
        guard besideEnd?.done == true, besideArrived == besideBlock else {
            return .fail("closing one channel cancelled a send of another: send \(beside) on the open channel \(bystander) ended "
                + "\(besideEnd.map { "\($0)" } ?? "unreported") and the peer received \(besideArrived.count) of its \(besideBlock.count) bytes")
        }
        guard !cancelled.isEmpty else { return .inconclusive("every send had left before closeDataChannel: nothing was pending to cancel") }
        return .pass("closeDataChannel cancelled \(cancelled.count) pending send(s) (reported channelClosed); nothing more went out on the channel")
    }

    /// `createDataChannel` gives an id the peer knows and sends can use. A description is any
    /// text up to 255 bytes ("Streams" sets no other rule; docs/spark-wire.md "Bounds"): this
    /// one has a `/` and a `..`, which a file name may not.
    static let channelUsable = SparkCase("SPK/STRM/BV-01", brokenBy: [.channelUnannounced, .strayFrames, .descriptionAsFileName]) { stage in
        let (out, incoming) = try await stage.subjectSending()
        let description = "bv-01 channel/../one"
        let channel: UInt32
        do { channel = try await stage.subject.createDataChannel(out, description: description) } catch let refusal as SparkError {
            return .fail("createDataChannel refused the description \(description.debugDescription) (\(refusal)): only its length is bounded")
        }
        let block = sparkPattern(1000)
        _ = try await stage.subject.send(block, toChannel: channel, on: out)
        let arrived = try await stage.expectTester(0, "the block on the new channel") { event -> [UInt8]? in
            switch event {
            case .dataAvailable(incoming, let data) where data.id == channel: data.data
            case .ignored(_, .unknownChannel(incoming, channel, _)): []
            default: nil
            }
        }
        guard !arrived.isEmpty else { return .fail("the block sent on channel \(channel) reached the peer on a channel it was never told of") }
        let opened = stage.testers[0].events.events.contains { $0 == .channelOpened(incoming, channel: channel, description: description, by: .remote) }
        guard opened, arrived == block else { return .fail("channel \(channel): opened at the peer \(opened), block received whole \(arrived == block)") }
        if let wrong = try await closedByPeer(stage, channel: channel, out: out, incoming: incoming) { return .fail(wrong) }
        return .pass("channel \(channel) reached the peer with its description and carried a block; a channel the peer opened and closed was reported both, and refused a send after")
    }

    /// A channel its peer opens and then closes (`channelOpen`, `channelClose`, docs/spark-wire.md
    /// "Kinds"): the subject reports it opened and then closed by the remote side, and a send on
    /// it after is refused, by the API or as a send that ends failed, and carries nothing: a
    /// block sent behind it on `channel`, still open, arrives with nothing on the closed one
    /// before it (data goes in queue order). Why not, or nil.
    static func closedByPeer(_ stage: SparkStage, channel: UInt32, out: SparkConnectionID, incoming: SparkConnectionID) async throws -> String? {
        let tester = stage.testers[0], description = "bv-01 closed by the peer"
        let theirs = try await tester.perform { try $0.createDataChannel(incoming, description: description) }
        _ = try await stage.expectSubject("channelOpened for the channel its peer opened") { $0 == .channelOpened(out, channel: theirs, description: description, by: .remote) ? true : nil }
        try await tester.perform { try $0.closeDataChannel(incoming, channel: theirs) }
        _ = try await stage.expectSubject("channelClosed for the channel its peer closed") { $0 == .channelClosed(out, channel: theirs, by: .remote) ? true : nil }
        do {
            let send = try await stage.subject.send([0xC1], toChannel: theirs, on: out)
            let ended = try await stage.subjectSend(send, on: out)
            guard ended.last?.done == false, ended.last?.error != nil else {
                return "the subject's send on channel \(theirs), which its peer had closed, ended \(ended), not failed"
            }
        } catch is SparkError {}
        let mark = sparkPattern(3, seed: 0xC2)
        _ = try await stage.subject.send(mark, toChannel: channel, on: out)
        _ = try await stage.expectTester(0, "the block sent on channel \(channel) behind the send on the closed one") { event -> Bool? in
            if case .dataAvailable(incoming, let data) = event, data.id == channel, data.data == mark { true } else { nil }
        }
        let carried = tester.events.events.contains { event in
            if case .ignored(_, .unknownChannel(incoming, theirs, kind: SparkStage.streamBlockKind)) = event { true } else { false }
        }
        return carried ? "the subject sent a block on channel \(theirs) after its peer had closed it" : nil
    }

    /// A stream send ends with `done` and no progress fraction, however many frames it took;
    /// and with the peer withholding L2CAP credits (Core Vol 3, Part A §10.1) the sends wait
    /// on flow control: none fails, none overruns the credits, and once credits return every
    /// byte arrives, in order.
    static let noProgress = SparkCase("SPK/STRM/BV-02", brokenBy: [.streamProgressReported, .streamPiecesOverlap, .stalledFramesDropped, .creditsOverrun, .streamQueueNeverReleased]) { stage in
        let (out, incoming) = try await stage.subjectSending()
        let tester = stage.testers[0]
        let channel = try await stage.subject.createDataChannel(out, description: "bv-02")
        let blocks = [sparkPattern(100), sparkPattern(150_000, seed: 1), sparkPattern(7, seed: 2)]
        var allSends: [UInt64] = []
        for block in blocks {
            let send = try await stage.subject.send(block, toChannel: channel, on: out)
            allSends.append(send)
            if let wrong = try await Self.notOneDone(stage.subjectSend(send, on: out), of: block.count) {
                return .fail(await Self.flowControlBroken(tester).map { "the subject broke L2CAP flow control: \($0)" } ?? wrong)
            }
        }

        // Credits withheld: the subject uses those it holds, then its sends must wait.
        let stalled = (0..<6).map { sparkPattern(64 << 10, seed: UInt8(10 + $0)) }
        var sends: [UInt64] = []
        let overrun = { () async -> CaseOutcome? in
            await Self.flowControlBroken(tester).map { .fail("the subject broke L2CAP flow control while its credits were withheld: \($0)") }
        }
        let stall: SparkStage.Stall
        do {
            stall = try await stage.stall(0) {
                for block in stalled { sends.append(try await stage.subject.send(block, toChannel: channel, on: out)) }
            }
        } catch {
            // A tester that saw its credits overrun ends the link, so the subject's next send
            // may be refused for a connection it no longer has: the overrun is the rule broken.
            if let overrun = await overrun() { return overrun }
            throw error
        }
        allSends += sends
        if stall == .stoppedShort {
            return .fail("with \(stalled.count * (64 << 10)) bytes queued on the channel the subject stopped sending before it used the credits it held")
        }
        if stall == .creditsUsed { try await Task.sleep(for: SparkStage.stallLength) }
        if let overrun = await overrun() { return overrun }
        guard stall == .creditsUsed else { return .fail("the subject's Spark channel to the tester closed while its credits were withheld") }
        try await tester.node.withholdCredits(false, from: stage.subject.registrationID)
        for (block, send) in zip(stalled, sends) {
            if let wrong = try await Self.notOneDone(stage.subjectSend(send, on: out), of: block.count) { return .fail("with credits withheld for \(SparkStage.stallLength), \(wrong)") }
        }

        let expected = (blocks + stalled).flatMap { $0 }
        // Every send was reported done, so its bytes are on their way: they must keep arriving.
        var count = received(tester, incoming, channel: channel).count
        while count < expected.count {
            let seen = count
            do {
                count = try await tester.events.first("more stream bytes", within: SparkStage.eventTimeout) { _ in
                    let now = received(tester, incoming, channel: channel).count
                    return now > seen ? now : nil
                }
            } catch is TimeoutError {
                return .fail("the peer received \(count) of the \(expected.count) stream bytes whose sends were reported done, none for \(SparkStage.eventTimeout) (credits were withheld for \(SparkStage.stallLength) after the first \(blocks.count) sends)")
            }
        }
        let arrived = received(tester, incoming, channel: channel)
        guard arrived == expected else { return .fail("the peer received \(arrived.count) bytes on the channel, not the blocks' \(expected.count) bytes in order") }
        // Judged again on the whole log: a send reported done twice, or given a fraction or an
        // error after its done, is no stream send's single completion.
        for (block, send) in zip(blocks + stalled, allSends) {
            let progress = stage.subject.events.events.compactMap { event -> SparkProgress? in
                if case .sendProgress(out, send, let progress) = event { progress } else { nil }
            }
            if let wrong = Self.notOneDone(progress, of: block.count) { return .fail("by the end, \(wrong)") }
        }
        if let wrong = try await backPressureLetsGo(stage, channel: channel, on: out) { return .fail(wrong) }
        return .pass("\(blocks.count + stalled.count) stream sends each ended with done and no progress fraction, \(stalled.count) of them across \(SparkStage.stallLength) of withheld credits; the peer received their bytes in order; back-pressure let go of bytes sent")
    }

    /// Back-pressure counts the stream bytes still waiting, never those gone
    /// (docs/spark-wire.md "Bounds": 4 MiB of stream queued, per connection): two sends of
    /// 64 KiB past that bound, each awaited before the next, so that no more than one waits,
    /// are all taken, whether a broken count grows as bytes leave or never falls. The bound is
    /// written here, not read from `SparkLimits`, which a subject may share. Why not, or nil.
    private static func backPressureLetsGo(_ stage: SparkStage, channel: UInt32, on out: SparkConnectionID) async throws -> String? {
        let piece = sparkPattern(64 << 10, seed: 0x5B), count = (4 << 20) / piece.count + 2
        for index in 0..<count {
            let send: UInt64
            do { send = try await stage.subject.send(piece, toChannel: channel, on: out) } catch let error as SparkError {
                return "after \(index) stream sends of \(piece.count) bytes, each done before the next, the subject refused the next: \(error); back-pressure counts the bytes still waiting, and none were"
            }
            if let wrong = try await Self.notOneDone(stage.subjectSend(send, on: out), of: piece.count) { return "of \(count) stream sends one at a time, \(wrong)" }
        }
        return nil
    }

    /// The credit breaches the tester's host recorded from the subject (a K-frame without
    /// credit, credits past 65535: §10.1, §4.24), or nil.
    private static func flowControlBroken(_ tester: SparkTester) async -> String? {
        let violations = await tester.host.violations.filter { $0.contains("L2CAP") && $0.contains("credit") }
        return violations.isEmpty ? nil : violations.joined(separator: "; ")
    }

    /// Why a stream send's progress reports are not one `done` with no fraction, or nil.
    private static func notOneDone(_ progress: [SparkProgress], of size: Int) -> String? {
        guard progress.allSatisfy({ $0.fraction == nil }) else {
            return "a stream send of \(size) bytes reported progress \(progress.compactMap(\.fraction)): progress has no meaning for streams"
        }
        guard progress.count == 1, progress[0].done, progress[0].error == nil else { return "a stream send of \(size) bytes reported \(progress), not one done" }
        return nil
    }

    /// Stream blocks reach `dataAvailableCallback` typed as stream, on their channel, in order;
    /// and with a channel of the subject's own open beside the peer's, each side's blocks stay
    /// on their own channel (the two sides' ids never collide, docs/spark-wire.md "Kinds"); a
    /// channel the peer opens with an id of the subject's numbering is ignored.
    static let typedStream = SparkCase("SPK/STRM/BV-03", brokenBy: [.streamTypedAsData, .channelIDsOfPeer, .foreignChannelTaken, .descriptionAsFileName]) { stage in
        let (theirs, out) = try await stage.subjectReceiving()
        let tester = stage.testers[0]
        let named = "bv-03/../in"  // a description may hold what a file name may not
        let channel = try await tester.perform { try $0.createDataChannel(out, description: named) }
        let blocks = [sparkPattern(300), sparkPattern(70_000, seed: 3), sparkPattern(5, seed: 4)]
        for block in blocks { _ = try await tester.perform { try $0.send(block, toChannel: channel, on: out) } }
        let expected = blocks.flatMap { $0 }
        do {
            _ = try await stage.expectSubject("\(expected.count) bytes on channel \(channel)") { _ in
                sparkChannelBytes(stage.subject.events, on: theirs, channel: channel).count >= expected.count ? true : nil
            }
        } catch let verdict as SparkVerdict {
            guard stage.subject.events.events.contains(.channelOpened(theirs, channel: channel, description: named, by: .remote)) else {
                return .fail("the subject never reported the tester's channel \(channel) opened with its description \(named.debugDescription), which may hold what a file name may not: only its length is bounded")
            }
            throw verdict
        }
        let delivered = stage.subject.events.events.compactMap { event -> SparkChannelData? in
            if case .dataAvailable(theirs, let data) = event, data.id == channel { data } else { nil }
        }
        guard delivered.allSatisfy({ $0.kind == .stream && $0.progress == nil }) else {
            return .fail("stream blocks were delivered typed \(Set(delivered.map { "\($0.kind)" }).sorted()), not stream")
        }
        guard delivered.flatMap(\.data) == expected else { return .fail("the stream's bytes arrived changed or out of order") }

        // Both sides' channels at once: the subject opens its own and sends on it, the tester
        // sends again on its channel; neither block may land on the other's channel.
        try await tester.perform { try $0.setReceiveCallbacks(out, data: true, file: false) }
        let own = try await stage.subject.createDataChannel(theirs, description: "bv-03 subject")
        let mine = sparkPattern(400, seed: 5), again = sparkPattern(600, seed: 6)
        _ = try await stage.subject.send(mine, toChannel: own, on: theirs)
        let arrived = try await stage.expectTester(0, "the block the subject sent on its own channel \(own)") { event -> [UInt8]? in
            guard case .dataAvailable(out, let data) = event, data.id == own, data.description == "bv-03 subject" else { return nil }
            return data.data
        }
        // A channel id of the subject's own numbering opened by the peer (with frames the
        // tester's core never writes) would collide with the subject's next channel: ignored.
        let foreign = own &+ 2
        try await tester.write([.channelOpen(channel: foreign, description: "bv-03 collides"), .streamBlock(channel: foreign, bytes: [9, 9, 9])], on: out)
        _ = try await tester.perform { try $0.send(again, toChannel: channel, on: out) }
        let later = try await stage.expectSubject("the tester's next block on channel \(channel)") { event -> SparkChannelData? in
            guard case .dataAvailable(theirs, let data) = event, data.data == again else { return nil }
            return data
        }
        guard own != channel, arrived == mine else {
            return .fail("the subject's channel \(own) (the tester's is \(channel)) carried \(arrived.count) bytes of its \(mine.count)")
        }
        guard later.id == channel, later.kind == .stream, later.description == named else {
            return .fail("the tester's block came to the subject on channel \(later.id) (\(later.description)), not its channel \(channel)")
        }
        let taken = stage.subject.events.events.filter { event in
            switch event {
            case .channelOpened(theirs, foreign, _, _): true
            case .dataAvailable(theirs, let data): data.id == foreign
            default: false
            }
        }
        guard taken.isEmpty else {
            return .fail("the peer opened channel \(foreign), an id of the subject's own numbering, and the subject took it: \(taken)")
        }
        return .pass("\(delivered.count) deliveries on channel \(channel), typed stream, carried the blocks in order; with the subject's channel \(own) open beside it, each side's block stayed on its channel, and a channel the peer opened with the subject's numbering was ignored")
    }
}
