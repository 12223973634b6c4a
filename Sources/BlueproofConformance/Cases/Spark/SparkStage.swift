import BlueproofAsync
import BlueproofHost
import BlueproofSpark
import BlueproofWire
import Foundation

/// A Spark case's verdict reached mid-script: the subject broke the rule (`fail`) or nothing
/// the case could judge happened (`inconclusive`).
struct SparkVerdict: Error, CustomStringConvertible {
    let outcome: CaseOutcome
    var description: String { outcome.reason }
    static func fail(_ reason: String) -> SparkVerdict { SparkVerdict(outcome: .fail(reason)) }
}

/// What one Spark case runs on: the subject (node 0) from the provider, and testers (nodes 1…)
/// of our own, each advertising; the subject links to them over LE.
final class SparkStage: Sendable {
    static let subjectRegistration: UInt64 = 0x5B17_0000_0000_0001
    /// The header's kind byte of a stream block (docs/spark-wire.md "Kinds"): what a case
    /// counts as carried on a channel, where a `channelClose` carries nothing.
    static let streamBlockKind = SparkFrame.streamBlock(channel: 0, bytes: []).kind
    /// How long a case waits for a callback that follows a frame at once.
    static let eventTimeout: Duration = .seconds(15)
    /// How long a case waits for a transfer to end.
    static let transferTimeout: Duration = .seconds(90)
    /// How long a tester withholds credits once the subject used them: the fault's length (a
    /// stimulus, not a wait for an event), long enough for a sender's queue to find the channel full.
    static let stallLength: Duration = .seconds(2)

    let context: CaseContext
    let subject: any SparkControl
    let testers: [SparkTester]
    private let folder: String

    private init(context: CaseContext, subject: any SparkControl, testers: [SparkTester], folder: String) {
        self.context = context
        self.subject = subject
        self.testers = testers
        self.folder = folder
    }

    /// With `restarted`, the last tester is tester 0 started again: its registration id and
    /// key id, a core of its own, on another node.
    static func make(_ context: CaseContext, provider: any SparkProvider, application: SparkApplication, testers count: Int,
                     restarted: Bool = false) async throws -> SparkStage {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("blueproof-spark-testers-\(context.folder)-\(UInt32.random(in: 0...UInt32.max))").path
        var testers: [SparkTester] = []
        let subject: any SparkControl
        do {
            for index in 0..<count {
                let again = restarted && index == count - 1 ? testers.first : nil
                testers.append(try await SparkTester(host: try context.host(index + 1), registrationID: again?.registrationID ?? 0x7E57_0000_0000_0001 + UInt64(index),
                                                     keyID: again?.keyID, folder: "\(folder)/tester\(index + 1)"))
            }
            subject = try await provider.subject(application, registrationID: subjectRegistration, for: context)
        } catch {
            for tester in testers { tester.stop() }
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        context.log.note("Spark subject \(provider.name), registration \(String(subject.registrationID, radix: 16)); \(count) tester(s)\(restarted ? ", the last one the first restarted" : "")")
        return SparkStage(context: context, subject: subject, testers: testers, folder: folder)
    }

    func stop() async {
        await subject.close()
        for tester in testers { tester.stop() }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Links the subject to tester `index` over LE and, unless `keys` is false, exchanges keys
    /// both ways first ("Keys must be exchanged before a call can be placed").
    func link(_ index: Int, keys: Bool = true) async throws {
        let tester = testers[index]
        if keys { try await exchangeKeys(index) }
        let peer: UInt64
        do { peer = try await subject.link(to: tester.host.address) } catch {
            throw StageFailure(.connection, "the subject did not open its Spark channel to tester \(index + 1): \(error)")
        }
        guard peer == tester.registrationID else {
            throw StageFailure(.connection, "the subject's channel named peer \(String(peer, radix: 16)), not tester \(index + 1)")
        }
    }

    /// The subject listens and tester `index` connects to it and opens the Spark channel, keys
    /// exchanged both ways first ("Listening For Data Connections"). A subject that does not
    /// take the channel, or whose hello does not name it, fails; a `sparkListen` it refuses or
    /// cannot carry out is an unmet precondition.
    ///
    /// With `rawChannels`, the tester then opens three more channels on the same LE connection
    /// (``judgeRawChannels(_:linked:)``), which must not outlive the 10 s a peer has to send
    /// its hello (docs/spark-wire.md "Transport"), nor take the real one with them.
    func linkToSubject(_ index: Int, rawChannels: Bool = false) async throws {
        try await exchangeKeys(index)
        let address: BDAddress
        do { address = try await subject.listen() } catch {
            throw StageFailure(.connection, "the subject could not listen for Spark channels: \(error)")
        }
        let peer: UInt64
        do { peer = try await testers[index].link(to: address) } catch {
            throw SparkVerdict.fail("listening at \(address), the subject did not take tester \(index + 1)'s LE connection and Spark channel with its hello first: \(error)")
        }
        let linked = ContinuousClock.now
        guard peer == subject.registrationID else {
            throw SparkVerdict.fail("the subject's hello named \(String(peer, radix: 16)), not its registration \(String(subject.registrationID, radix: 16))")
        }
        if rawChannels { try await judgeRawChannels(index, linked: linked) }
    }

    /// How soon and how late the subject may close a channel on which no hello came: the
    /// 10 s of docs/spark-wire.md "Transport", with room for the runner's timing either side.
    static let helloWait: ClosedRange<Duration> = .milliseconds(9500) ... .seconds(15)

    /// The first frame of a channel that opens with no `hello`: a `channelClose` for a
    /// connection the subject never heard of, harmless if it were read.
    static let notHello = SparkEnvelope(origin: .sender, connection: 1, frame: .channelClose(channel: 1))

    /// Tester `index`'s channels with no hello, opened at once on its LE connection a second
    /// after its real channel (`linked`): two silent ones, which the subject must close within
    /// ``helloWait`` each (one wait at a time keeps the second 20 s; a timer from the LE
    /// connection closes them a second early), and one whose first frame is no hello, closed
    /// by then too; any may be refused instead. The real channel must still be open 11 s after
    /// it was (a hello timer never stopped would have closed it).
    private func judgeRawChannels(_ index: Int, linked: ContinuousClock.Instant) async throws {
        let tester = testers[index], limit = Self.helloWait.upperBound
        try await Task.sleep(until: linked + .seconds(1))
        async let first = tester.rawChannel(sending: nil, limit: limit)
        async let second = tester.rawChannel(sending: nil, limit: limit)
        async let wrong = tester.rawChannel(sending: try Self.notHello.encoded(), limit: limit)
        for outcome in try await [first, second] {
            if let wrong = Self.verdict(on: outcome, "on which no hello came", earliest: Self.helloWait.lowerBound) { throw wrong }
        }
        if let wrong = Self.verdict(on: try await wrong, "whose first frame was no hello", earliest: nil) { throw wrong }
        try await Task.sleep(until: linked + .seconds(11))
        guard await tester.node.isLinked(to: subject.registrationID) else {
            throw SparkVerdict.fail("the subject closed the Spark channel its peer had named itself on within 11 s, while channels with no hello came and went on the same link: a hello timer left running, or the link dropped")
        }
    }

    /// What is wrong with the subject's handling of a channel `what` (nil when nothing is): kept
    /// past ``helloWait``, never answered, or closed before `earliest`.
    private static func verdict(on outcome: SparkTester.RawChannel, _ what: String, earliest: Duration?) -> SparkVerdict? {
        switch outcome {
        case .kept: .fail("the subject kept a Spark channel \(what) open for \(helloWait.upperBound); it is to close it after 10 s")
        case .unanswered(let error): .fail("the subject never answered the request for a Spark channel \(what): \(error)")
        case .closed(let took) where earliest.map({ took < $0 }) == true:
            .fail("the subject closed a Spark channel \(what) after \(took), before the 10 s a peer has to send it")
        case .closed, .refused: nil
        }
    }

    /// The subject records tester `index`'s key and the tester the subject's.
    private func exchangeKeys(_ index: Int) async throws {
        let tester = testers[index]
        try await subject.recordKey(tester.keyID, for: tester.registrationID)
        await tester.perform { $0.recordKey(subject.keyID, for: subject.registrationID) }
    }

    /// The subject's view of a connection a tester names `id`, and the other way round.
    func mirror(_ id: SparkConnectionID, peer: UInt64) -> SparkConnectionID {
        SparkConnectionID(peer: peer, number: id.number, outgoing: !id.outgoing)
    }

    /// The first subject event `match` maps to a value, passing over the first `start`
    /// recorded; none within `limit` is the subject's failure.
    func expectSubject<T: Sendable>(_ what: String, within limit: Duration = eventTimeout, from start: Int = 0,
                                    _ match: @escaping @Sendable (SparkEvent) -> T?) async throws -> T {
        do { return try await subject.events.first(what, within: limit, from: start, match) } catch is TimeoutError {
            throw SparkVerdict.fail("the subject reported no \(what) within \(limit)")
        }
    }

    /// The first event of tester `index` `match` maps to a value, passing over the first `start`
    /// recorded; none within `limit` is the subject's failure (what the tester receives is what
    /// the subject put on the air).
    func expectTester<T: Sendable>(_ index: Int, _ what: String, within limit: Duration = eventTimeout, from start: Int = 0,
                                   _ match: @escaping @Sendable (SparkEvent) -> T?) async throws -> T {
        do { return try await testers[index].events.first(what, within: limit, from: start, match) } catch is TimeoutError {
            throw SparkVerdict.fail("tester \(index + 1) never received \(what) within \(limit)")
        }
    }

    /// Tester `index` waits until `sends` on its connection `out` are done, then opens a channel
    /// there and waits for the subject to report it on `theirs` (recorded after `start`): control
    /// frames go after what has left, so everything the sends carried has reached the subject.
    /// A send the subject refused is its failure (data before the callbacks is consumed
    /// silently, docs/spark-wire.md "Exchange"); sends that never leave are the tester's.
    @discardableResult
    func settle(_ index: Int, sends: [UInt64], on out: SparkConnectionID, theirs: SparkConnectionID, from start: Int = 0) async throws -> UInt32 {
        let tester = testers[index]
        for send in sends {
            let progress: SparkProgress
            do {
                progress = try await tester.events.first("send \(send) done", within: Self.transferTimeout, Self.end(of: send, on: out))
            } catch { throw StageFailure(.tester, "tester \(index + 1)'s sends did not leave: \(error)") }
            if let error = progress.error {
                throw SparkVerdict.fail("a send of tester \(index + 1)'s that the subject's receive callbacks were not set for ended \(error): such data is consumed silently")
            }
        }
        let barrier = try await tester.perform { try $0.createDataChannel(out, description: "barrier") }
        _ = try await expectSubject("the channel tester \(index + 1) opened after its sends", from: start) { event -> Bool? in
            if case .channelOpened(theirs, barrier, _, .remote) = event { true } else { nil }
        }
        return barrier
    }

    /// The subject opens a channel on `theirs` and tester `index` waits to see it on `out`:
    /// control frames leave in the order queued, so whatever the subject sent before (an
    /// offer, a refusal) has reached the tester. `after` names what came before, for the wait.
    /// The channel.
    @discardableResult
    func subjectSettled(_ index: Int, on theirs: SparkConnectionID, out: SparkConnectionID, after: String) async throws -> UInt32 {
        // From here on: the subject may give a closed barrier's id to the next.
        let start = testers[index].events.events.count
        let channel = try await subject.createDataChannel(theirs, description: "barrier")
        _ = try await expectTester(index, "the channel the subject opened after \(after)", from: start) { event -> Bool? in
            if case .channelOpened(out, channel, _, .remote) = event { true } else { nil }
        }
        return channel
    }

    /// The transfer numbers of tester `index`'s that the subject answered with an `error` frame
    /// the tester's core could not match to a send of its own (a refusal of frames the tester
    /// wrote by hand, or one that came after its send was done), once both sides have settled:
    /// the subject has read what the tester wrote before (`settle`) and what it sent back has
    /// reached the tester (`subjectSettled`). `after` names what was written, for the waits.
    /// Both barrier channels are closed again, so calls in a row leave none open. Each number
    /// comes with the reason of its first `error` frame.
    func refusedTransfers(_ index: Int, out: SparkConnectionID, theirs: SparkConnectionID, after: String) async throws -> [UInt32: SparkTransferFailure] {
        let testerBarrier = try await settle(index, sends: [], on: out, theirs: theirs)
        let subjectBarrier = try await subjectSettled(index, on: theirs, out: out, after: after)
        try await testers[index].perform { try $0.closeDataChannel(out, channel: testerBarrier) }
        try await subject.closeDataChannel(theirs, channel: subjectBarrier)
        let subject = subject.registrationID
        var refused: [UInt32: SparkTransferFailure] = [:]
        for case .ignored(subject, .unknownTransfer(out, let number, let failure?)) in testers[index].events.events where refused[number] == nil {
            refused[number] = failure
        }
        return refused
    }

    /// The subject offers to tester `index`, which has it available to answer: the connection
    /// as the subject and the tester name it. An offer that never arrives, or that the tester
    /// declines as malformed (one numbered 0, the `hello`'s connection: docs/spark-wire.md,
    /// "Header"), is the subject's failure.
    func subjectOffers(_ index: Int, metadata: String = "") async throws -> (subject: SparkConnectionID, tester: SparkConnectionID) {
        let out = try await subject.startDataConnection(to: testers[index].registrationID, metadata: metadata)
        let incoming = mirror(out, peer: subject.registrationID)
        let subjectID = subject.registrationID
        let declined = try await expectTester(index, "the subject's offer") { event -> SparkConnectionID?? in
            event == .available(incoming) ? .some(nil) : Self.declinedAsMalformed(event, offeredBy: subjectID).map { .some($0) }
        }
        if let declined {
            let zero = declined.number == 0 ? ", numbered 0, the hello's connection (no offer may be)" : ""
            throw SparkVerdict.fail("tester \(index + 1) declined the subject's offer as malformed\(zero): \(declined), the subject's \(out)")
        }
        return (out, incoming)
    }

    /// The connection a tester's `event` declined as malformed when the offer came from `subject`
    /// (docs/spark-wire.md, "Exchange" 1), or nil.
    static func declinedAsMalformed(_ event: SparkEvent, offeredBy subject: UInt64) -> SparkConnectionID? {
        if case .ended(let id, .malformed, by: .local) = event, id.peer == subject, !id.outgoing { id } else { nil }
    }

    /// The subject offers to tester `index`, which accepts: the connection as the subject and
    /// the tester name it. A step that does not happen is an unmet precondition.
    func subjectCalls(_ index: Int, metadata: String = "") async throws -> (subject: SparkConnectionID, tester: SparkConnectionID) {
        let tester = testers[index]
        let out: SparkConnectionID, incoming: SparkConnectionID
        do {
            (out, incoming) = try await subjectOffers(index, metadata: metadata)
            try await tester.perform { try $0.accept(incoming) }
            _ = try await subject.events.first("dataConnectionAccepted", within: Self.eventTimeout) { $0 == .accepted(out) ? true : nil }
        } catch {
            throw StageFailure(.connection, "the subject's data connection to tester \(index + 1) was not accepted: \(error)")
        }
        return (out, incoming)
    }

    /// Tester `index` offers to the subject, which accepts once it is available.
    func testerCalls(_ index: Int, metadata: String = "") async throws -> (subject: SparkConnectionID, tester: SparkConnectionID) {
        let tester = testers[index]
        let out = try await tester.perform { try $0.startDataConnection(to: subject.registrationID, metadata: metadata) }
        let incoming = mirror(out, peer: tester.registrationID)
        do {
            _ = try await subject.events.first("incomingDataConnectionAvailable", within: Self.eventTimeout) { $0 == .available(incoming) ? true : nil }
            try await subject.accept(incoming)
            _ = try await tester.events.first("dataConnectionAccepted", within: Self.eventTimeout) { $0 == .accepted(out) ? true : nil }
        } catch {
            throw StageFailure(.connection, "tester \(index + 1)'s data connection to the subject was not accepted: \(error)")
        }
        return (incoming, out)
    }

    /// The subject linked to tester 0 and connected to it, the tester's receive callbacks set:
    /// the subject sends.
    func subjectSending() async throws -> (subject: SparkConnectionID, tester: SparkConnectionID) {
        try await link(0)
        let ids = try await subjectCalls(0)
        try await testers[0].perform { try $0.setReceiveCallbacks(ids.tester, data: true, file: true) }
        return ids
    }

    /// Tester 0 connected to the subject, the subject's receive callbacks set: the subject receives.
    func subjectReceiving() async throws -> (subject: SparkConnectionID, tester: SparkConnectionID) {
        try await link(0)
        let ids = try await testerCalls(0)
        try await subject.setReceiveCallbacks(ids.subject, data: true, file: true)
        return ids
    }

    /// How the subject met credits tester `index` withheld (Core Vol 3, Part A §10.1).
    enum Stall { case creditsUsed, channelClosed, stoppedShort }

    /// Tester `index` stops returning credits, `queue` has the subject queue its sends, and the
    /// tester waits until the subject has used every credit it held (the sends beyond stay
    /// queued), the channel closed, or `eventTimeout` passed.
    func stall(_ index: Int, _ queue: () async throws -> Void) async throws -> Stall {
        let node = testers[index].node, peer = subject.registrationID
        try await node.withholdCredits(true, from: peer)
        try await queue()
        do {
            return try await withTimeout(Self.eventTimeout, what: "the subject to use every credit") {
                do { try await node.creditsExhausted(by: peer) } catch { return Stall.channelClosed }
                return Stall.creditsUsed
            }
        } catch is TimeoutError {
            return .stoppedShort
        }
    }

    /// Tester `index` tops the subject's credits back up to its initial grant, withholds them
    /// again and waits as ``stall(_:_:)`` does: one grant, for a fault that needs the subject
    /// to move a little further.
    func lend(_ index: Int) async throws -> Stall {
        let node = testers[index].node, peer = subject.registrationID
        return try await stall(index) {
            try await node.withholdCredits(false, from: peer)
            try await node.withholdCredits(true, from: peer)
        }
    }

    /// The progress events of the subject's send `send`, up to and including its last (done or
    /// failed); a send that never ends within `limit` is the subject's failure.
    func subjectSend(_ send: UInt64, on id: SparkConnectionID, within limit: Duration = transferTimeout) async throws -> [SparkProgress] {
        _ = try await expectSubject("the end of send \(send)", within: limit, Self.end(of: send, on: id))
        return subjectProgress(send, on: id)
    }

    /// Every progress report of send `send` on `id` the subject made so far.
    func subjectProgress(_ send: UInt64, on id: SparkConnectionID) -> [SparkProgress] {
        subject.events.events.compactMap { event in
            if case .sendProgress(id, send, let progress) = event { progress } else { nil }
        }
    }

    /// The report that ends send `send` on `id`: done, or failed.
    static func end(of send: UInt64, on id: SparkConnectionID) -> @Sendable (SparkEvent) -> SparkProgress? {
        { event in if case .sendProgress(id, send, let progress) = event, progress.done || progress.error != nil { progress } else { nil } }
    }

    /// The first of `sends` on `id` that does not end (done or failed) within `eventTimeout`, or nil.
    func firstUnended(_ sends: [UInt64], on id: SparkConnectionID) async throws -> UInt64? {
        for send in sends {
            do { _ = try await subject.events.first("the end of send \(send)", within: Self.eventTimeout, Self.end(of: send, on: id)) } catch is TimeoutError {
                return send
            }
        }
        return nil
    }
}

/// The bytes `log` received on `channel` of connection `id` so far, in order.
func sparkChannelBytes(_ log: SparkEventLog, on id: SparkConnectionID, channel: UInt32) -> [UInt8] {
    log.events.flatMap { event -> [UInt8] in
        if case .dataAvailable(id, let data) = event, data.id == channel { data.data } else { [] }
    }
}

/// A byte pattern of `count` bytes that a shifted or truncated copy does not match.
func sparkPattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) } }

extension SparkEvent {
    /// The connection the event names, if any: an `ignored` frame names one unless it was
    /// unreadable or for a connection its reader does not hold.
    var namedConnection: SparkConnectionID? {
        switch self {
        case .offering(let id, _), .offered(let id, _), .available(let id), .accepted(let id), .ended(let id, _, _),
             .channelOpened(let id, _, _, _), .channelClosed(let id, _, _), .sendProgress(let id, _, _),
             .dataAvailable(let id, _), .fileAvailable(let id, _),
             .ignored(_, .noReceiveCallback(let id)), .ignored(_, .unknownChannel(let id, _, _)),
             .ignored(_, .unknownTransfer(let id, _, _)), .ignored(_, .unexpected(let id, _)): id
        case .ignored(_, .unknownConnection), .ignored(_, .malformed): nil
        }
    }
}
