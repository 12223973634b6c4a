import BlueproofAsync
import BlueproofSpark

/// SPK/CONN: offering, answering and ending data connections ("Listening For Data
/// Connections", "Starting A Data Connection", "Sending Data").
enum SparkConnectionCases {
    static let all: [SparkCase] = [declined, secondOffer, keyError, metadataOver, available, accepted, several,
                                   metadata(SparkLimits.maxMetadataBytes - 1, "SPK/CONN/BV-04"), metadata(SparkLimits.maxMetadataBytes, "SPK/CONN/BV-05")]

    /// How the subject's connection `id` first settled: accepted, or ended with a reason by a side.
    enum Settled: Sendable, Equatable, CustomStringConvertible {
        case accepted
        case ended(SparkEndReason, SparkSide)

        var description: String {
            switch self {
            case .accepted: "accepted"
            case .ended(let reason, let side): "ended (\(reason), by the \(side) side)"
            }
        }
    }

    /// How incoming or outgoing `id` first settled; with `available`, an incoming offer made
    /// available counts as `.accepted` (its application may accept it).
    static func settled(_ id: SparkConnectionID, available: Bool = false) -> @Sendable (SparkEvent) -> Settled? {
        { event in
            switch event {
            case .accepted(id): .accepted
            case .available(id): available ? .accepted : nil
            case .ended(id, let reason, let side): .ended(reason, side)
            default: nil
            }
        }
    }

    /// `bytes` of UTF-8 as three-byte characters ("€"), padded with ASCII: far fewer characters
    /// than bytes, so a limit counted other than in UTF-8 bytes shows.
    static func threeByteText(_ bytes: Int) -> String {
        String(repeating: "€", count: bytes / 3) + String(repeating: "m", count: bytes % 3)
    }

    /// How `id` ended, once it has: the reason and the side that ended it.
    static func ending(_ id: SparkConnectionID) -> @Sendable (SparkEvent) -> Settled? {
        { event in if case .ended(id, let reason, let side) = event { .ended(reason, side) } else { nil } }
    }

    /// A decline ends the connection on both sides: the subject as caller takes the tester's
    /// decline as the end, never as an accept; as callee its decline ends it at the tester.
    /// An accepted connection ended by either side ends on both, and a file coming in fails with
    /// it; an offer the subject withdraws before an answer ends at the callee; stray answers end
    /// nothing; sends queued at an end end with it.
    static let declined = SparkCase("SPK/CONN/BI-01", brokenBy: [.declineTakenAsAccept, .endUnannounced, .endKeepsTransfers, .endKeepsSends, .cancelledSendsDelivered, .cancelledSendsFlushed, .strayDeclineEnds, .withdrawalDeclined, .cancelledProgressInBytes, .peerLinkLostIgnored, .endAnswered, .acceptOutOfState]) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let (out, incoming) = try await stage.subjectOffers(0, metadata: "decline me")
        try await tester.perform { try $0.decline(incoming) }
        let caller = try await stage.expectSubject("an answer to its offer", settled(out))
        guard caller == .ended(.declined, .remote) else {
            return .fail("the subject, declined by the callee, reported \(caller) for its offer instead of ended (declined by the peer)")
        }
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID) }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        _ = try await stage.expectSubject("incomingDataConnectionAvailable") { $0 == .available(theirs) ? true : nil }
        try await stage.subject.decline(theirs)
        let callee = try await stage.expectSubject("the end of the connection it declined", settled(theirs))
        let atTester = try await stage.expectTester(0, "an answer to its offer", settled(offered))
        guard callee == .ended(.declined, .local), atTester == .ended(.declined, .remote) else {
            return .fail("the subject declining an offer: it reported \(callee), the caller received \(atTester)")
        }
        // Accepting the connection it declined is out of state: refused, or at least nothing
        // sent and nothing reported accepted (read with the ends, below).
        do { try await stage.subject.accept(theirs) } catch is SparkError {}
        // Ending an accepted connection, from each side, ends it on both.
        let mine = try await stage.testerCalls(0, metadata: "ended by the subject")
        try await stage.subject.end(mine.subject)
        let endedHere = try await stage.expectSubject("the end of the connection it ended", ending(mine.subject))
        let endedThere = try await stage.expectTester(0, "the end of the connection the subject ended", ending(mine.tester))
        guard endedHere == .ended(.ended, .local), endedThere == .ended(.ended, .remote) else {
            return .fail("the subject ending its connection: it reported \(endedHere), its peer received \(endedThere)")
        }
        let yours = try await stage.testerCalls(0, metadata: "ended by the tester")
        // A file coming in when the peer ends the connection fails with it.
        try await stage.subject.setReceiveCallbacks(yours.subject, data: true, file: true)
        let content = sparkPattern(2 << 20, seed: 11)
        let path = try tester.placeFile(content, named: "cut-by-end.bin")
        _ = try await tester.perform { try $0.sendFile(path, on: yours.tester) }
        _ = try await stage.expectSubject("progress of the file coming in", within: SparkStage.transferTimeout) { event -> Bool? in
            if case .fileAvailable(yours.subject, let file) = event, file.name == "cut-by-end.bin", file.progress > 0 { true } else { nil }
        }
        do { try await tester.node.perform { try $0.end(yours.tester) } } catch is SparkError {
            return .fail("the subject had ended the connection it accepted before its peer could end it")
        }
        let endedByPeer = try await stage.expectSubject("the end of the connection its peer ended", ending(yours.subject))
        guard endedByPeer == .ended(.ended, .remote) else { return .fail("its peer ending the connection, the subject reported \(endedByPeer)") }
        let cut = try await stage.expectSubject("end of the file coming in on the connection its peer ended", SparkFileCases.fileEnd(yours.subject, "cut-by-end.bin"))
        if cut.transferComplete {
            let bytes = try await stage.subject.readFile(at: cut.path ?? "\(stage.subject.cacheFolder)/cut-by-end.bin")
            guard bytes == content else { return .fail("a file cut by the end of its connection was reported complete") }
        } else {
            guard cut.path == nil, cut.error != nil else { return .fail("a file cut by the end of its connection was reported \(cut)") }
        }
        var endedByHand: [SparkConnectionID: Int] = [:]
        if let wrong = try await peerLinkLost(stage, endedByHand: &endedByHand) { return .fail(wrong) }
        if let wrong = try await withdrawnOffer(stage) { return .fail(wrong) }
        if let wrong = try await strayAnswers(stage) { return .fail(wrong) }
        if let wrong = try await endWithSendsQueued(stage) { return .fail(wrong) }
        if let wrong = try await endsUnanswered(stage, endedByHand: endedByHand, declined: theirs) { return .fail(wrong) }
        return .pass("a decline ended the connection on both sides, the subject calling and called, and a stray one ended nothing; so did an end from either side (a peer's as a lost link too), an offer the subject withdrew before its answer, and the file coming in failed with it; sends still queued at an end each ended once, none completing after it nor reaching the peer, blocks among them reporting fractions in [0, 1]; the subject answered no end or decline it received, sent nothing on a connection that had ended, and accepted neither an offer it had declined nor its own")
    }

    /// An `end` or a `decline` is final: its receiver tears the connection down and answers
    /// nothing (docs/spark-wire.md, "Exchange" 5). First the tester ends a connection the
    /// subject called, so that an answer may name either side's numbering. Once the subject has
    /// settled on a new connection, and `stallLength` after (for an answer sent on a timer), the
    /// tester must have read no frame of the subject's for a connection it does not hold: in
    /// this case none is legitimate, since frames on the one channel arrive in order, so all a
    /// connection carried came before its end, and every end before the barrier. Nor may any
    /// event of the tester's name a connection of `endedByHand` after its end (frames written
    /// by hand, so its core still holds it; the value is the tester's log length then), nor may
    /// the subject have reported `declined`, which it was asked to accept after declining,
    /// accepted. Why not, or nil.
    static func endsUnanswered(_ stage: SparkStage, endedByHand: [SparkConnectionID: Int], declined: SparkConnectionID) async throws -> String? {
        let tester = stage.testers[0]
        let called = try await stage.subjectCalls(0, metadata: "ended by its callee")
        // A channel left open on it: closing it after the end would answer the end too.
        _ = try await stage.subjectSettled(0, on: called.subject, out: called.tester, after: "the call the tester will end")
        try await tester.node.perform { try $0.end(called.tester) }
        let ended = try await stage.expectSubject("the end of the connection its callee ended", ending(called.subject))
        guard ended == .ended(.ended, .remote) else { return "its callee ending the connection, the subject reported \(ended)" }
        let ids = try await stage.testerCalls(0, metadata: "after the ends")
        let barrier = try await stage.subjectSettled(0, on: ids.subject, out: ids.tester, after: "the ends and declines of this case")
        let stray: @Sendable (SparkEvent, Int) -> String? = { event, index in
            if case .ignored(_, .unknownConnection(let number, let kind)) = event {
                return "a frame of kind \(kind.map(String.init) ?? "unknown") for connection \(number), which the tester no longer held"
            }
            guard let id = event.namedConnection, let from = endedByHand[id], index >= from else { return nil }
            return "\(event) on connection \(id.number), which the tester had ended by reason 8"
        }
        let seen = tester.events.events
        var answers = seen.enumerated().compactMap { stray($1, $0) }
        if answers.isEmpty, let late = try? await tester.events.first("a frame for a connection ended or declined", within: SparkStage.stallLength, from: seen.count, { stray($0, .max) }) {
            answers.append("\(late) (\(SparkStage.stallLength) after the barrier)")
        }
        if stage.subject.events.events.contains(.accepted(declined)) {
            return "the subject, asked to accept a connection it had declined, reported it accepted"
        }
        guard answers.isEmpty else {
            return "the subject sent \(answers.joined(separator: ", ")): an end or a decline it receives is final, never answered, and nothing goes on a connection that has ended"
        }
        try await stage.subject.closeDataChannel(ids.subject, channel: barrier)
        try await tester.node.perform { try $0.end(ids.tester) }
        _ = try await stage.expectSubject("end of the connection the tester ended last", ending(ids.subject))
        return nil
    }

    /// A peer may end a connection with reason 8, link lost (docs/spark-wire.md, "End reasons"):
    /// the tester writes such an `end` on one of two accepted connections. The subject must
    /// report that one ended by its peer with that reason, refuse a channel on it, and keep the
    /// other (the link itself was not lost): a data block on it still arrives. The connection so
    /// ended joins `endedByHand` (the tester's core still holds it). Why not, or nil.
    static func peerLinkLost(_ stage: SparkStage, endedByHand: inout [SparkConnectionID: Int]) async throws -> String? {
        let tester = stage.testers[0]
        let kept = try await stage.testerCalls(0, metadata: "stays up")
        let ids = try await stage.testerCalls(0, metadata: "lost at the peer")
        try await stage.subject.setReceiveCallbacks(kept.subject, data: true, file: false)
        // Written by hand: the tester's core never sends reason 8, and keeps its record of `ids`.
        endedByHand[ids.tester] = tester.events.events.count
        try await tester.write([.end(.linkLost)], on: ids.tester)
        let ended = try await stage.expectSubject("end of a connection its peer ended as a lost link (reason 8)", ending(ids.subject))
        guard ended == .ended(.linkLost, .remote) else { return "its peer ending the connection as a lost link (reason 8), the subject reported \(ended)" }
        do {
            let channel = try await stage.subject.createDataChannel(ids.subject, description: "after the end")
            return "the subject opened channel \(channel) on a connection its peer had ended as a lost link"
        } catch is SparkError {}
        let block = sparkPattern(1500, seed: 43)
        _ = try await tester.perform { try $0.send(block, description: "on the other connection", on: kept.tester) }
        let other = try await stage.expectSubject("the data block on its other connection to that peer, or that connection's end", within: SparkStage.transferTimeout) { event -> SparkEvent? in
            switch event {
            case .dataAvailable(kept.subject, let data) where data.description == "on the other connection" && (data.transferComplete || data.error != nil): event
            case .ended(kept.subject, _, _): event
            default: nil
            }
        }
        guard case .dataAvailable(_, let data) = other, data.transferComplete, data.data == block else {
            return "its peer ending one connection as a lost link (reason 8), the subject's other connection to that peer did not carry a data block whole: \(other)"
        }
        try await tester.node.perform { try $0.end(kept.tester) }
        _ = try await stage.expectSubject("the end of its other connection, ended by the tester", ending(kept.subject))
        return nil
    }

    /// The subject ends its own offer before the callee answers: `end` is the caller's to send
    /// at any time, `decline` only the callee's (docs/spark-wire.md, "Kinds"), so the tester,
    /// still holding the offer, must report it ended by its peer. Asked before that to accept
    /// its own offer, the subject must send no accept and report none. Why not, or nil.
    static func withdrawnOffer(_ stage: SparkStage) async throws -> String? {
        let (out, incoming) = try await stage.subjectOffers(0, metadata: "withdrawn")
        // Its own offer is not the caller's to accept: refused, or at least nothing sent.
        do { try await stage.subject.accept(out) } catch is SparkError {}
        try await stage.subject.end(out)
        let here = try await stage.expectSubject("the end of the offer it withdrew", ending(out))
        guard here == .ended(.ended, .local) else { return "the subject withdrawing its offer before an answer reported \(here)" }
        let there = try await stage.expectTester(0, "the end of the offer the subject withdrew before an answer (the callee still held it)", settled(incoming))
        guard there == .ended(.ended, .remote) else { return "the subject withdrawing its offer before an answer: the callee received \(there)" }
        // An accept, had one gone, came before the end on the one channel; the tester's core,
        // the callee, reads an accept only as out of state.
        let accept = SparkFrame.accept.kind
        if stage.testers[0].events.events.contains(.ignored(peer: stage.subject.registrationID, .unexpected(incoming, kind: accept))) {
            return "the subject, asked to accept its own offer, sent an accept for it: only the callee accepts"
        }
        if stage.subject.events.events.contains(.accepted(out)) { return "the subject, asked to accept its own offer, reported it accepted" }
        return nil
    }

    /// A decline answers an offer; it does not end a connection already accepted. The tester
    /// accepts the subject's offer, then writes what its own core never would: a decline and a
    /// second accept of that connection, and a decline of one the subject never offered
    /// (docs/spark-wire.md, "Exchange" 4: answers out of state are ignored). The connection must
    /// stay up: a data block the tester sends next arrives whole, the subject reports no end, and
    /// `dataConnectionAccepted` once. Why not, or nil.
    static func strayAnswers(_ stage: SparkStage) async throws -> String? {
        let tester = stage.testers[0]
        let ids = try await stage.subjectCalls(0, metadata: "answered twice")
        try await stage.subject.setReceiveCallbacks(ids.subject, data: true, file: false)
        try await tester.write([.decline(.declined), .accept], on: ids.tester)
        var unknown = ids.tester
        unknown.number &+= 0x4000_0000
        try await tester.write([.decline(.declined)], on: unknown)
        let block = sparkPattern(2000, seed: 41)
        _ = try await tester.perform { try $0.send(block, description: "after stray answers", on: ids.tester) }
        enum Outcome: Sendable { case block(SparkChannelData), ended(SparkEvent) }
        let outcome = try await stage.expectSubject("the data block sent after the stray answers, or the connection's end", within: SparkStage.transferTimeout) { event -> Outcome? in
            switch event {
            case .dataAvailable(ids.subject, let data) where data.description == "after stray answers" && (data.transferComplete || data.error != nil): .block(data)
            case .ended(ids.subject, _, _): .ended(event)
            default: nil
            }
        }
        switch outcome {
        case .ended(let ended): return "a decline and an accept of a connection already accepted ended it: the subject reported \(ended)"
        case .block(let data) where !data.transferComplete || data.data != block:
            return "after stray answers to its accepted connection, the subject took the next data block as \(data)"
        case .block: break
        }
        let accepted = stage.subject.events.events.filter { $0 == .accepted(ids.subject) }.count
        guard accepted == 1 else { return "a second accept of a connection already accepted: the subject reported dataConnectionAccepted \(accepted) times" }
        return nil
    }

    /// The subject ends a connection with sends queued (its peer withholds credits, so they
    /// stay queued): a data block larger than the credits, cut part-way, stream sends, then an
    /// empty data block. Each send ends once, none completes after the end (what was still
    /// pending is cancelled), each block's progress stays a fraction of its size in [0, 1] that
    /// never falls, its cancellation included, the peer receives before the end no more stream
    /// bytes than the stream sends reported done and one in flight, and nothing for the
    /// connection after it (watched until a block sent on a new connection after the end
    /// arrived, and `stallLength` more, for a stack that does not keep one queue per peer).
    /// Why not, or nil.
    static func endWithSendsQueued(_ stage: SparkStage) async throws -> String? {
        let tester = stage.testers[0]
        let ids = try await stage.testerCalls(0, metadata: "ended with sends queued")
        // The tester takes the blocks as data, so what reached it before the end is counted.
        try await tester.perform { try $0.setReceiveCallbacks(ids.tester, data: true, file: false) }
        let channel = try await stage.subject.createDataChannel(ids.subject, description: "ended with sends queued")
        let sendBytes = 64 << 10
        var sends: [UInt64] = [], blocks: [UInt64] = []
        let stall = try await stage.stall(0) {
            blocks.append(try await stage.subject.send(sparkPattern(6 * sendBytes, seed: 19), description: "cut by the end", on: ids.subject))
            for index in 0..<6 { sends.append(try await stage.subject.send(sparkPattern(sendBytes, seed: UInt8(20 + index)), toChannel: channel, on: ids.subject)) }
            blocks.append(try await stage.subject.send([], description: "empty, queued at the end", on: ids.subject))
        }
        guard stall == .creditsUsed else { throw StageFailure(.tester, "the subject's sends did not use up the credits it held (\(stall)): nothing stayed queued to end with") }
        try await stage.subject.end(ids.subject)
        _ = try await stage.expectSubject("the end of the connection it ended with sends queued", ending(ids.subject))
        try await tester.node.withholdCredits(false, from: stage.subject.registrationID)
        _ = try await stage.expectTester(0, "the end of the connection the subject ended with sends queued", ending(ids.tester))
        if let send = try await stage.firstUnended(blocks + sends, on: ids.subject) {
            return "send \(send), queued when the subject ended its connection, never ended: neither done nor failed"
        }
        let records = stage.subject.events.records
        guard let endedAt = records.firstIndex(where: { if case .ended(ids.subject, _, _) = $0.event { true } else { false } }) else {
            return "the subject's end of its connection is no longer in its log"
        }
        var done = 0
        for send in blocks + sends {
            let ending = SparkStage.end(of: send, on: ids.subject)
            let ends = records.indices.filter { ending(records[$0].event) != nil }
            guard ends.count == 1 else { return "send \(send) ended \(ends.count) times around the end of its connection" }
            if ends[0] > endedAt, ending(records[ends[0]].event)?.done == true {
                return "send \(send) completed after the subject ended its connection: its queued blocks still went out"
            }
            if sends.contains(send), let end = ending(records[ends[0]].event), end.done, end.error == nil { done += 1 }
        }
        for block in blocks {
            let fractions = stage.subjectProgress(block, on: ids.subject).compactMap(\.fraction)
            guard fractions.allSatisfy({ (0...1).contains($0) }), zip(fractions, fractions.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                return "data block send \(block), queued when the subject ended its connection, reported progress \(fractions), not fractions of its size in [0, 1] that never fall"
            }
        }
        let seen = tester.events.events, subject = stage.subject.registrationID
        guard let testerEnd = seen.firstIndex(where: { if case .ended(ids.tester, _, _) = $0 { true } else { false } }) else {
            return "the tester's end of the connection is no longer in its log"
        }
        let received = seen[..<testerEnd].reduce(0) { sum, event in
            if case let .dataAvailable(ids.tester, data) = event, data.kind == .stream, data.id == channel { sum + data.data.count } else { sum }
        }
        if received > (done + 1) * sendBytes {
            return "its peer received \(received) bytes of the connection's stream before the end, more than the \(done) send(s) reported done and the one in flight (\((done + 1) * sendBytes) bytes): sends reported cancelled went out anyway"
        }
        let block = SparkFrame.streamBlock(channel: channel, bytes: []).kind
        let leaked: @Sendable (SparkEvent) -> Bool? = { $0 == .ignored(peer: subject, .unknownConnection(number: ids.tester.number, kind: block)) ? true : nil }
        let leak = "blocks of the connection the subject ended still reached its peer after the end: sends it had queued went out anyway"
        if seen[testerEnd...].contains(where: { leaked($0) != nil }) { return leak }
        let after = try await stage.subjectCalls(0, metadata: "after an end with sends queued")
        try await tester.perform { try $0.setReceiveCallbacks(after.tester, data: true, file: false) }
        let barrier = try await stage.subject.createDataChannel(after.subject, description: "after the end")
        let sent = try await stage.subjectSend(try await stage.subject.send([0xB0], toChannel: barrier, on: after.subject), on: after.subject)
        if let failure = sent.last?.error { throw StageFailure(.connection, "the subject's block on a new connection after the end failed: \(failure)") }
        _ = try await stage.expectTester(0, "the block sent on a new connection after the end") { event -> Bool? in
            if case .dataAvailable(after.tester, let data) = event, data.id == barrier { true } else { nil }
        }
        if (try? await tester.events.first("a block of the ended connection", within: SparkStage.stallLength, leaked)) != nil { return leak }
        return nil
    }

    /// The sample app, holding one connection, ends a second offer at once (`busy`), reporting
    /// it offered but never available, and refuses to start a second of its own
    /// (`tooManyConnections`, docs/spark-wire.md "Bounds").
    static let secondOffer = SparkCase("SPK/CONN/BI-02", application: .sample,
                                       brokenBy: [.secondOfferKept, .busyNeverFreed, .busyBeforeOffered, .secondCallStarted]) { stage in
        try await stage.link(0)
        let first = try await stage.testerCalls(0)
        let tester = stage.testers[0]
        let second = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "second") }
        let theirs = stage.mirror(second, peer: tester.registrationID)
        let outcome = try await stage.expectSubject("the second offer made available or ended", settled(theirs, available: true))
        guard outcome == .ended(.busy, .local) else {
            return .fail(outcome == .accepted ? "the single-connection app made a second offer available while it held a connection"
                                              : "the second offer ended with \(outcome), not busy by the app")
        }
        let atTester = try await stage.expectTester(0, "an answer to its second offer", settled(second))
        guard atTester == .ended(.busy, .remote) else { return .fail("the second caller received \(atTester), not ended (busy)") }
        let log = stage.subject.events.events
        guard let offeredAt = log.firstIndex(of: .offered(theirs, metadata: "second")), let endedAt = log.firstIndex(of: .ended(theirs, .busy, by: .local)),
              offeredAt < endedAt else {
            return .fail("the single-connection app ended the second offer busy without reporting it offered first")
        }
        // Nor does it start a second connection of its own while it holds one: it refuses the
        // call before sending anything ("Exchange" 1), so a channel it opens next reaches the
        // tester with no offer before it.
        do {
            let own = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: "own second")
            return .fail("holding a connection, the single-connection app started a second one of its own (\(own)) instead of refusing it")
        } catch let refusal as SparkError {
            guard case .tooManyConnections = refusal else {
                return .fail("holding a connection, the single-connection app refused a second one of its own with \(refusal), not tooManyConnections")
            }
        }
        try await stage.subjectSettled(0, on: first.subject, out: first.tester, after: "refusing its own second connection")
        if let sent = tester.events.events.first(where: { if case .offered(_, "own second") = $0 { true } else { false } }) {
            return .fail("the single-connection app refused its own second connection (tooManyConnections) only after sending the offer: tester 1 reported \(sent)")
        }
        // The connection it held ends: the app is free for the next offer.
        do { try await tester.node.perform { try $0.end(first.tester) } } catch is SparkError {
            return .fail("the subject had already ended the connection it held, though only a second offer and a refused call of its own came")
        }
        let held = try await stage.expectSubject("the end of the connection it held", ending(first.subject))
        guard held == .ended(.ended, .remote) else {
            return .fail("the connection it held, which the caller ended, ended \(held) at the subject, not ended by its peer")
        }
        let third = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "third") }
        let freed = try await stage.expectSubject("an offer once its connection ended made available or ended",
                                                  settled(stage.mirror(third, peer: tester.registrationID), available: true))
        guard freed == .accepted else { return .fail("after the connection it held had ended, the single-connection app still ended a new offer: \(freed)") }
        return .pass("holding one connection, the sample app ended the second offer (busy) at once and refused to start one of its own (tooManyConnections); once that connection ended, it took the next")
    }

    /// Keys not exchanged: the subject's own offer fails with the key error before anything is
    /// sent, and a caller whose key it does not hold, or holds wrong, is declined with the key error.
    static let keyError = SparkCase("SPK/CONN/BI-03", brokenBy: [.keyUnchecked, .checkedAfterSending, .keyPresenceOnly, .remoteKeyErrorAsDeclined]) { stage in
        try await stage.link(0, keys: false)
        let tester = stage.testers[0]
        // The tester holds the subject's key from the start, so an offer sent in spite of the key error would be offered there.
        await tester.perform { $0.recordKey(stage.subject.keyID, for: stage.subject.registrationID) }
        do {
            let id = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: "no key")
            return .fail("startDataConnection to a peer whose key the subject does not hold returned \(id) instead of the key error")
        } catch let error as SparkError {
            guard case .keyError = error else { return .fail("startDataConnection without the peer's key failed with \(error), not the key error") }
        }
        for wrongKey in [false, true] {
            if wrongKey { try await stage.subject.recordKey(tester.keyID.map { $0 ^ 0x5A }, for: tester.registrationID) }
            let held = wrongKey ? "holds a wrong key for" : "holds no key for"
            let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "unsynchronized") }
            let theirs = stage.mirror(offered, peer: tester.registrationID)
            let atSubject = try await stage.expectSubject("an offer from a caller it \(held) made available or ended", settled(theirs, available: true))
            guard atSubject == .ended(.keyError, .local) else {
                return .fail("an offer from a caller the subject \(held) was \(atSubject == .accepted ? "made available" : atSubject.description), not declined with the key error")
            }
            // Its answer follows on the same channel any offer the subject sent first, so it is the barrier.
            let atTester = try await stage.expectTester(0, "an answer to an offer the subject \(held)", settled(offered))
            guard atTester == .ended(.keyError, .remote) else { return .fail("the caller the subject \(held) received \(atTester)") }
        }
        let received = tester.events.events.filter { if case .offered(let id, _) = $0 { id.peer == stage.subject.registrationID } else { false } }
        guard received.isEmpty else { return .fail("the offer refused with the key error still reached the peer: \(received)") }
        // The caller's side: the subject holds the tester's key, the tester a wrong one for the
        // subject, so the tester declines with the key error, which the subject must report.
        try await stage.subject.recordKey(tester.keyID, for: tester.registrationID)
        await tester.perform { $0.recordKey(stage.subject.keyID.map { $0 ^ 0xA5 }, for: stage.subject.registrationID) }
        let out = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: "wrong key at the callee")
        let answered = try await stage.expectSubject("the answer to an offer its callee holds a wrong key for", settled(out))
        guard answered == .ended(.keyError, .remote) else {
            return .fail("an offer its callee declined with the key error (kMediaFailureKeyError on both sides) ended at the subject as \(answered)")
        }
        return .pass("without keys exchanged the subject's offer failed with the key error and nothing was sent; callers it holds no key, or a wrong key, for were declined (key error); a callee's key-error decline was reported as the key error")
    }

    /// Metadata over 4096 bytes of UTF-8 is refused by the API and never sent: one byte over in
    /// ASCII, and 1366 three-byte characters (4098 bytes, 1366 characters).
    static let metadataOver = SparkCase("SPK/CONN/BI-04", brokenBy: [.metadataUnbounded, .metadataCountedInCharacters, .malformedOfferIgnored, .offerZeroTaken]) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let texts = [String(repeating: "m", count: SparkLimits.maxMetadataBytes + 1), threeByteText(SparkLimits.maxMetadataBytes + 2)]
        for over in texts {
            do {
                let id = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: over)
                return .fail("startDataConnection with \(over.utf8.count) bytes (\(over.count) characters) of metadata returned \(id) instead of refusing")
            } catch let error as SparkError {
                guard case .metadataTooLarge = error else { return .fail("metadata over the limit was refused with \(error), not metadataTooLarge") }
            }
        }
        let after = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: "after")
        let marker = stage.mirror(after, peer: stage.subject.registrationID)
        _ = try await stage.expectTester(0, "the offer made after the refused ones") { $0 == .offered(marker, metadata: "after") ? true : nil }
        // What the peer saw before that offer: none of the refused ones, whole or refused as malformed.
        let seen = tester.events.events.prefix { $0 != .offered(marker, metadata: "after") }.filter { event in
            switch event {
            case .offered(let id, _): id.peer == stage.subject.registrationID
            case .ignored(stage.subject.registrationID, .malformed(let error)): error.header?.kind == 2  // an offer it could not read
            case .ended(let id, .malformed, _): id.peer == stage.subject.registrationID
            default: false
            }
        }
        guard seen.isEmpty else { return .fail("a refused offer still reached the peer: \(seen)") }
        if let wrong = try await oversizedOfferDeclined(stage) { return .fail(wrong) }
        return .pass("metadata of \(texts.map { "\($0.utf8.count) bytes (\($0.count) characters)" }.joined(separator: " and ")) was refused (metadataTooLarge) and nothing was sent; two offers to the subject, one with \(SparkLimits.maxMetadataBytes + 1) bytes of metadata and one numbered 0, were each declined as malformed, never offered")
    }

    /// The callee's side of the bound: an offer with 4097 bytes of metadata, written by the
    /// tester as its encoder never would, cannot be read; nor can one numbered 0, the `hello`'s
    /// connection (no offer may be). The subject declines each `malformed` for the
    /// connection the tester offered (the caller is not left waiting out its offer timeout) and
    /// never reports it offered (docs/spark-wire.md, "Header", "Bounds", "Exchange" 1). Why not,
    /// or nil.
    static func oversizedOfferDeclined(_ stage: SparkStage) async throws -> String? {
        let bytes = SparkLimits.maxMetadataBytes + 1
        // The metadata "x" and its u16 length, the offer's last fields, replaced.
        let oversized = try await writtenOfferDeclined(stage, "an offer with \(bytes) bytes of metadata") {
            SparkTester.replacingTail(of: $0, dropping: 3, with: [UInt8(bytes >> 8), UInt8(bytes & 0xFF)] + Array(repeating: UInt8(ascii: "m"), count: bytes))
        }
        if let oversized { return oversized }
        return try await writtenOfferDeclined(stage, "an offer numbered 0 (the hello's connection)", number: 0)
    }

    /// The tester writes an offer with metadata "x" on a connection its core holds as its own
    /// offer (`SparkCore.holdWrittenOffer`, numbered `number` if given), its bytes passed
    /// through `rewrite`, so it reports the answer as any; the subject must decline it
    /// `malformed` and never report it offered. `what` names the offer. Why not, or nil.
    static func writtenOfferDeclined(_ stage: SparkStage, _ what: String, number: UInt32? = nil,
                                     rewrite: ([UInt8]) -> [UInt8] = { $0 }) async throws -> String? {
        let tester = stage.testers[0]
        let subject = stage.subject.registrationID
        let out = await tester.perform { $0.holdWrittenOffer(to: subject, number: number) }
        let offer = SparkOffer(caller: tester.registrationID, callee: subject, callerKey: tester.keyID, metadata: "x")
        try await tester.write([.offer(offer)], on: out, rewrite: rewrite)
        let incoming = stage.mirror(out, peer: tester.registrationID)
        enum Answer: Sendable { case answered(SparkEvent), stray(SparkEvent) }
        let answer: Answer
        do {
            answer = try await stage.expectTester(0, "an answer to \(what)") { event -> Answer? in
                switch event {
                case .ended(out, _, _), .accepted(out): .answered(event)
                case .ignored(subject, .unknownConnection(number: out.number, _)): .stray(event)
                default: nil
                }
            }
        } catch let verdict as SparkVerdict {
            // No answer: an offer the subject took and left for its application says so at once.
            guard let taken = stage.subject.events.events.first(where: { if case .offered(incoming, _) = $0 { true } else { false } }) else { throw verdict }
            return "\(what) was taken, not declined as malformed: the subject reported \(taken) and never answered it"
        }
        switch answer {
        case .stray(let event):
            return "\(what) was answered for a connection the tester does not hold (its origin names the subject as offerer): \(event)"
        case .answered(let event) where event != .ended(out, .malformed, by: .remote):
            return "\(what) was answered so that the tester reported \(event), not a decline as malformed"
        case .answered: break
        }
        // What the subject reported before an offer the tester makes next (its events come in order).
        let after = "after \(what)"
        let marker = stage.mirror(try await tester.perform { try $0.startDataConnection(to: subject, metadata: after) }, peer: tester.registrationID)
        _ = try await stage.expectSubject("the offer made after \(what)") { $0 == .offered(marker, metadata: after) ? true : nil }
        let reported = stage.subject.events.events.prefix { $0 != .offered(marker, metadata: after) }.filter {
            if case .offered(incoming, _) = $0 { true } else if case .available(incoming) = $0 { true } else { false }
        }
        guard reported.isEmpty else { return "\(what) was declined as malformed yet reported \(reported)" }
        return nil
    }

    /// The subject, listening, takes a tester's channel with its hello first, and closes the two
    /// that follow with no hello (``SparkStage/linkToSubject(_:rawChannels:)``); an offer on the first is
    /// reported offered with its metadata, then available once set up, without the
    /// application's help; the application's accept reaches the caller. Then the tester
    /// restarts (`restartedPeerTaken`).
    static let available = SparkCase("SPK/CONN/BV-01", testers: 2, restarts: true,
                                     brokenBy: [.setupNeverCompletes, .availableBeforeOffered, .calleeAcceptUnreported, .listenerHelloWithheld,
                                                .restartKeepsOldChannel, .callbacksOutliveConnection, .channelKeptWithoutHello]) { stage in
        // The subject listens here, as the section's title says; every other case has it open the
        // channel. Two channels with no hello follow on the same link: the subject must close them.
        try await stage.linkToSubject(0, rawChannels: true)
        let tester = stage.testers[0]
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "bv-01") }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        _ = try await stage.expectSubject("incomingDataConnectionOffered with the caller's metadata") { $0 == .offered(theirs, metadata: "bv-01") ? true : nil }
        _ = try await stage.expectSubject("incomingDataConnectionAvailable once set up") { $0 == .available(theirs) ? true : nil }
        let events = stage.subject.events.events
        guard let offeredAt = events.firstIndex(of: .offered(theirs, metadata: "bv-01")), let availableAt = events.firstIndex(of: .available(theirs)),
              offeredAt < availableAt else {
            return .fail("the subject reported the connection available before it reported the offer")
        }
        try await stage.subject.accept(theirs)
        _ = try await stage.expectTester(0, "dataConnectionAccepted") { $0 == .accepted(offered) ? true : nil }
        // "Once a connection is established the delegate will get dataConnectionAccepted": the callee's too.
        _ = try await stage.expectSubject("dataConnectionAccepted on its own side, as callee") { $0 == .accepted(theirs) ? true : nil }
        if let wrong = try await restartedPeerTaken(stage, old: theirs) { return .fail(wrong) }
        return .pass("listening, the subject took the tester's channel and named itself, and closed or refused two that followed with no hello; the offer was reported offered with its metadata, then available, and accepted on both sides; when the tester restarted on another link, the old connection ended as lost, and the new one, under its number, dropped what came before its callbacks were set and carried data both ways")
    }

    /// Tester 1 restarts: tester 2, with its registration id and key id and a core of its own,
    /// links to the listening subject while tester 1's link stays up, silent (a peer whose
    /// application restarted before its old link was seen gone). One channel per peer, the
    /// newest (docs/spark-wire.md, "Transport"): the subject must end the old connection as
    /// lost (either side: the subject closes the channel itself) and close the old channel, so
    /// tester 1 sees its connection lost too; then take the restarted peer's offer, numbered
    /// as the old one was, as a new connection (a block sent before its receive callbacks are
    /// set is dropped, though the old one's were set), and carry a data block each way on it.
    /// Why not, or nil.
    static func restartedPeerTaken(_ stage: SparkStage, old: SparkConnectionID) async throws -> String? {
        let restarted = stage.testers[1], subject = stage.subject.registrationID
        try await stage.subject.setReceiveCallbacks(old, data: true, file: true)
        let before = stage.subject.events.records.count
        try await stage.linkToSubject(1)
        let ended = try await stage.expectSubject("end of the connection to tester 1, whose registration id tester 2 took on a new link", from: before, ending(old))
        guard case .ended(.linkLost, _) = ended else { return "when its peer restarted on a new link, the old connection \(ended), not as a lost link" }
        let mirrored = stage.mirror(old, peer: subject)
        _ = try await stage.expectTester(0, "the end of its connection as a lost link: the subject closing the channel its restarted peer replaced") {
            if case .ended(mirrored, .linkLost, _) = $0 { true } else { nil }
        }
        let offered = try await restarted.perform { try $0.startDataConnection(to: subject, metadata: "bv-01 restarted") }
        let again = stage.mirror(offered, peer: restarted.registrationID)
        guard again == old else { throw StageFailure(.tester, "the restarted tester numbered its first offer \(again.number), not \(old.number) as its first core did: the new connection would not share the old one's number") }
        _ = try await stage.expectSubject("incomingDataConnectionOffered from the restarted peer (connection \(again.number), as the old one was)", from: before) {
            $0 == .offered(again, metadata: "bv-01 restarted") ? true : nil
        }
        _ = try await stage.expectSubject("incomingDataConnectionAvailable from the restarted peer", from: before) { $0 == .available(again) ? true : nil }
        try await stage.subject.accept(again)
        _ = try await stage.expectTester(1, "dataConnectionAccepted from the subject, once restarted") { $0 == .accepted(offered) ? true : nil }
        // A new connection, though under the old one's number: its receive callbacks start unset.
        let path = try restarted.placeFile(sparkPattern(700, seed: 30), named: "bv-01-before-callbacks.bin")
        let early = [try await restarted.perform { try $0.send(sparkPattern(500, seed: 29), description: "bv-01 before callbacks", on: offered) },
                     try await restarted.perform { try $0.sendFile(path, on: offered) }]
        try await stage.settle(1, sends: early, on: offered, theirs: again, from: before)
        try await restarted.perform { try $0.setReceiveCallbacks(offered, data: true, file: false) }
        try await stage.subject.setReceiveCallbacks(again, data: true, file: false)
        let (mine, theirs) = (sparkPattern(1000, seed: 27), sparkPattern(1000, seed: 28))
        _ = try await stage.subject.send(mine, description: "bv-01 to the restarted", on: again)
        _ = try await restarted.perform { try $0.send(theirs, description: "bv-01 from the restarted", on: offered) }
        let got = try await stage.expectTester(1, "the subject's data block, on the restarted peer's connection") { event -> [UInt8]? in
            if case .dataAvailable(offered, let data) = event, data.description == "bv-01 to the restarted", data.transferComplete || data.error != nil { data.data } else { nil }
        }
        guard got == mine else { return "the subject's data block reached the restarted peer as \(got.count) bytes, not the \(mine.count) sent" }
        let came = try await stage.expectSubject("the restarted peer's data block", from: before) { event -> [UInt8]? in
            if case .dataAvailable(again, let data) = event, data.description == "bv-01 from the restarted", data.transferComplete || data.error != nil { data.data } else { nil }
        }
        guard came == theirs else { return "the restarted peer's data block reached the subject as \(came.count) bytes, not the \(theirs.count) sent" }
        let kept = stage.subject.events.records.dropFirst(before).filter { record in
            switch record.event {
            case .dataAvailable(again, let data): data.description == "bv-01 before callbacks"
            case .fileAvailable(again, let file): file.name == "bv-01-before-callbacks.bin"
            default: false
            }
        }
        guard kept.isEmpty else {
            return "the restarted peer's connection delivered a data block or file sent before its receive callbacks were set (\(kept.count) callback(s)): it is a new connection, though under the number of the old one, whose callbacks were set"
        }
        return nil
    }

    /// The callee's accept gives the caller `dataConnectionAccepted`: the subject as caller
    /// reports it before anything else on the connection, and as callee its accept reaches the
    /// caller. Its offer must be one the tester can take: never numbered 0 (`subjectOffers`).
    static let accepted = SparkCase("SPK/CONN/BV-02", brokenBy: [.acceptUnreported, .channelBeforeAccept, .offersFromZero]) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let (out, incoming) = try await stage.subjectOffers(0, metadata: "")
        // Nothing flows before the accept ("Once a connection is established ... you may use the
        // connection"): a channel asked for now is refused, or held back until the accept.
        let early: UInt32?
        do { early = try await stage.subject.createDataChannel(out, description: "before accept") } catch is SparkError { early = nil }
        if let early {
            // A second offer follows on the same link anything that channel sent.
            _ = try await stage.subjectOffers(0, metadata: "barrier")
            let flowed = tester.events.events.filter { event in
                switch event {
                case .ignored(stage.subject.registrationID, .unexpected(incoming, _)), .channelOpened(incoming, _, _, _): true
                default: false
                }
            }
            guard flowed.isEmpty else {
                return .fail("channel \(early), asked for on a connection its callee had not accepted, reached the callee before the accept: \(flowed)")
            }
        }
        try await tester.perform { try $0.accept(incoming) }
        if let early {
            // Held back, it must still open once the connection is accepted.
            _ = try await stage.expectTester(0, "channel \(early), asked for before the accept, once accepted") { event -> Bool? in
                if case .channelOpened(incoming, early, "before accept", .remote) = event { true } else { nil }
            }
        }
        let channel = try await tester.perform { try $0.createDataChannel(incoming, description: "after accept") }
        let first = try await stage.expectSubject("dataConnectionAccepted, or the callee's channel") { event -> Bool? in
            switch event {
            case .accepted(out): true
            case .channelOpened(out, channel, _, .remote): false
            default: nil
            }
        }
        guard first else { return .fail("the subject reported the callee's channel on its connection but never dataConnectionAccepted") }
        _ = try await stage.testerCalls(0)
        return .pass("accepted by the callee, the subject reported dataConnectionAccepted; its own accept reached its caller")
    }

    /// The API holds connections with two users at once.
    static let several = SparkCase("SPK/CONN/BV-03", testers: 2, brokenBy: [.severalRefused, .calleeIDsOfCaller, .acceptEndsOthers]) { stage in
        try await stage.link(0)
        try await stage.link(1)
        let first = try await stage.testerCalls(0)
        let tester = stage.testers[1]
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "second user") }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        let made = try await stage.expectSubject("the second user's offer made available or ended", settled(theirs, available: true))
        guard made == .accepted else { return .fail("holding a connection with one user, the API ended a second user's offer: \(made)") }
        try await stage.subject.accept(theirs)
        _ = try await stage.expectTester(1, "dataConnectionAccepted") { $0 == .accepted(offered) ? true : nil }
        // Both carry data: the subject, callee on each, sends a block to each user. The first
        // user's block follows on its channel any end the accept sent it.
        for (index, ids) in [(0, first), (1, (subject: theirs, tester: offered))] {
            // A tester that no longer holds the connection says so below, by the end it recorded.
            _ = try? await stage.testers[index].perform { try $0.setReceiveCallbacks(ids.tester, data: true, file: false) }
            let channel = try await stage.subject.createDataChannel(ids.subject, description: "to user \(index + 1)")
            let block = sparkPattern(16, seed: UInt8(index))
            _ = try await stage.subject.send(block, toChannel: channel, on: ids.subject)
            let heard = try await stage.expectTester(index, "the block the subject sent on its connection with user \(index + 1)") { event -> [UInt8]?? in
                switch event {
                case .dataAvailable(ids.tester, let data) where data.id == channel: .some(data.data)
                case .ended(ids.tester, _, _): .some(nil)
                default: nil
                }
            }
            guard let got = heard else {
                let end = stage.testers[index].events.events.first { if case .ended(ids.tester, _, _) = $0 { true } else { false } }
                return .fail(index == 0 ? "accepting a second user's connection ended the first, as its user saw: \(end.map { "\($0)" } ?? "")"
                                        : "the second user's connection ended before the subject's block reached it: \(end.map { "\($0)" } ?? "")")
            }
            guard got == block else { return .fail("user \(index + 1) received \(got) on the subject's channel, not the block \(block) it sent") }
        }
        let ended = stage.subject.events.events.filter { if case .ended(first.subject, _, _) = $0 { true } else { false } }
        guard ended.isEmpty else { return .fail("accepting a second user's connection ended the first: \(ended)") }
        return .pass("two connections with two users were accepted, live at once, and each carried a block from the subject")
    }

    /// Metadata of `bytes` (at or under the limit) is accepted and arrives whole, in ASCII and
    /// in three-byte characters (so a limit counted other than in UTF-8 bytes shows): sent by
    /// the subject, and offered to it.
    static func metadata(_ bytes: Int, _ id: CaseID) -> SparkCase {
        SparkCase(id, brokenBy: [.metadataLimitLow, .metadataAsciiOnly, .incomingMetadataLimitLow]) { stage in
            try await stage.link(0)
            let texts = [String(repeating: "m", count: bytes), threeByteText(bytes)]
            for text in texts {
                let out: SparkConnectionID
                do { out = try await stage.subject.startDataConnection(to: stage.testers[0].registrationID, metadata: text) } catch let error as SparkError {
                    return .fail("startDataConnection with \(bytes) bytes (\(text.count) characters) of metadata (the limit is \(SparkLimits.maxMetadataBytes) bytes) was refused: \(error)")
                }
                let incoming = stage.mirror(out, peer: stage.subject.registrationID)
                let got = try await stage.expectTester(0, "the offer with its \(bytes) bytes of metadata") { event -> String? in
                    if case .offered(incoming, let metadata) = event { metadata } else { nil }
                }
                guard got == text else {
                    return .fail("the offer's \(bytes) bytes of metadata (\(text.count) characters) arrived as \(got.utf8.count) bytes that differ")
                }
            }
            // The subject as callee: the same metadata offered to it is reported whole.
            let tester = stage.testers[0]
            for text in texts {
                let out = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: text) }
                let incoming = stage.mirror(out, peer: tester.registrationID)
                let reported = try? await stage.subject.events.first("incomingDataConnectionOffered with \(bytes) bytes of metadata", within: SparkStage.eventTimeout) {
                    event -> String? in if case .offered(incoming, let metadata) = event { metadata } else { nil }
                }
                guard let reported else {
                    let ended = tester.events.events.first { if case .ended(out, _, _) = $0 { true } else { false } }
                    return .fail("an offer to the subject with \(bytes) bytes (\(text.count) characters) of metadata was never reported offered"
                        + (ended.map { ": \($0)" } ?? " within \(SparkStage.eventTimeout)"))
                }
                guard reported == text else {
                    return .fail("an offer to the subject with \(bytes) bytes of metadata (\(text.count) characters) was reported with \(reported.utf8.count) bytes that differ")
                }
            }
            return .pass("\(bytes) bytes of metadata, in ASCII and in three-byte characters, were accepted and arrived whole, sent by the subject and offered to it")
        }
    }
}
