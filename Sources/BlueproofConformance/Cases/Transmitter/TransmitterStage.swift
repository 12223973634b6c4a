import BlueproofAsync
import BlueproofTransmitter
import Foundation

/// The transmitters of one BFT case, node 0 first. Node 0 is the implementation under test
/// (the reference, or the DUT behind `--dut`); the others are the runner's testers.
public struct TransmitterStage: Sendable {
    public let nodes: [any TransmitterControl]
    public let logs: [TransmitterEventLog]
    public let context: CaseContext

    /// How long a case waits for the air: a connection, a delivery, a handshake.
    public var airTimeout: Duration { context.transmitterProvider?.airTimeout ?? .seconds(30) }
    /// How long a precondition (a start, a connection, a tester's part) may take to show: never
    /// under 30 s, so that a loaded machine (parallel tests on 2 cores) makes a case slower, not
    /// an error; the wait ends at the event, so a healthy run loses nothing.
    public var preconditionTimeout: Duration { max(airTimeout, .seconds(30)) }

    static func make(_ context: CaseContext, count: Int, wifi: Set<Int> = [], platforms: [Int: DevicePlatform] = [:]) async throws -> TransmitterStage {
        let nodes = platforms.isEmpty ? try await context.transmitters(count, wifi: wifi) : try await context.transmitters(count, platforms: platforms)
        var logs: [TransmitterEventLog] = []
        for node in nodes { logs.append(await TransmitterEventLog.attach(to: node)) }
        return TransmitterStage(nodes: nodes, logs: logs, context: context)
    }

    /// The implementation under test.
    public var subject: any TransmitterControl { nodes[0] }

    /// Tester `index` as the runner's own reference transmitter, whose inside a case may read or
    /// drive; `StageFailure(.tester)` naming `consequence` (what the case cannot do otherwise)
    /// when it is not one.
    func referenceTester(_ index: Int, else consequence: String) throws -> Transmitter {
        guard index > 0, let node = nodes[index] as? Transmitter else {
            throw StageFailure(.tester, "node \(index) is not one of the runner's reference transmitters: \(consequence)")
        }
        return node
    }

    /// Starts node `index` and returns its user id.
    @discardableResult
    public func start(_ index: Int, mode: ConnectionMode = .automatic) async throws -> UserID {
        do {
            try await nodes[index].start(mode: mode)
        } catch {
            throw StageFailure(index == 0 ? .start : .tester, "node \(index) did not start: \(error)")
        }
        guard let user = await nodes[index].localUser() else { throw StageFailure(index == 0 ? .start : .tester, "node \(index) started without a user id") }
        context.log.note("node \(index) started \(mode.rawValue) as \(user)")
        return user
    }

    /// Lets `span` pass for the subject's secure-connection expiry ("Secure connections"): its
    /// clock moves on at once when the provider can move it (the reference's injected clock),
    /// real time passes otherwise (an implementation under test, judged on its own clock).
    public func elapse(_ span: Duration) async throws {
        if try await moveSubjectClock(span) { return }
        try await context.clock.sleep(for: span)
    }

    /// Holds the subject's clock where it stands, when the provider can (the reference's injected
    /// clock, which from then on moves only by ``elapse(_:)``): before the last activity of an
    /// idle span the case measures, so real time spent on a loaded machine cannot stretch it.
    /// An implementation under test runs on its own clock, and nothing changes.
    public func holdSubjectClock() async throws {
        _ = try await moveSubjectClock(.zero)
    }

    /// Moves the subject's clock on by `span` when the provider can (the reference's injected
    /// clock); false, with no time passed, when it cannot (an implementation under test).
    public func moveSubjectClock(_ span: Duration) async throws -> Bool {
        guard let provider = context.transmitterProvider else { return false }
        do {
            try await provider.advanceClock(of: 0, by: span.seconds, for: context)
        } catch is TransmitterUnavailable {
            return false
        }
        context.log.note(span == .zero ? "the subject's clock held" : "the subject's clock moved on \(span)")
        return true
    }

    /// Waits until node `index` reports `event`.
    /// Not seeing it within the timeout means `precondition` was not met (a `StageFailure`).
    /// With `start`, events recorded before the `start`th do not count.
    public func wait(_ index: Int, for what: String, within timeout: Duration? = nil, from start: Int = 0, precondition: Precondition = .connection,
                     _ matches: @escaping @Sendable (TransmitterEvent) -> Bool) async throws -> TransmitterEvent {
        let timeout = timeout ?? preconditionTimeout
        guard let event = await logs[index].first(within: timeout, from: start, where: matches) else {
            throw StageFailure(precondition, "node \(index): no \(what) within \(timeout)")
        }
        context.log.note("node \(index): \(what)")
        return event
    }

    /// Starts nodes 0 and 1 in automatic mode and waits until each reports the other connected.
    public func connectedPair() async throws -> (subject: UserID, tester: UserID) {
        try await connectedPair(from: [0, 0])
    }

    /// After ``stopSubject(seenBy:)``: stops the tester too and starts both again, waiting for
    /// connections made from now on. A subject restarted alone can miss a tester whose link
    /// still counts it as seen (the reference's BLE link announces a peer once per sighting run).
    public func restartedPair() async throws -> (subject: UserID, tester: UserID) {
        await nodes[1].stop()
        return try await connectedPair(from: [logs[0].events.count, logs[1].events.count])
    }

    private func connectedPair(from marks: [Int]) async throws -> (subject: UserID, tester: UserID) {
        let subject = try await start(0)
        let tester = try await start(1)
        _ = try await wait(0, for: "connection with the tester", from: marks[0]) { $0 == .connected(tester) }
        _ = try await wait(1, for: "connection with the subject", from: marks[1]) { $0 == .connected(subject) }
        return (subject, tester)
    }

    /// Makes a secure connection from node `index` to `user` and waits for its event; `again`:
    /// a new one, after an earlier secure connection was reported.
    public func secure(_ index: Int, with user: UserID, again: Bool = false) async throws {
        let mark = again ? logs[index].events.count : 0
        do {
            try await nodes[index].establishSecureConnection(with: user)
        } catch {
            throw StageFailure(.secureConnection, "node \(index) could not start a secure connection: \(error)")
        }
        _ = try await wait(index, for: "secure connection with \(user.shortName)", from: mark, precondition: .secureConnection) { $0 == .secureConnection(user) }
    }

    /// A send from node `index`. The subject's refusal is thrown as it is (the case judges it);
    /// a tester's refusal means the stage failed.
    public func send(from index: Int, dictionary: [String: TransmitterValue]?, data: Data? = nil, to receiver: UserID?,
                     options: SendingOptions) async throws -> PacketID {
        let result: Result<PacketID, TransmitterError>
        do {
            result = .success(try await nodes[index].send(dictionary: dictionary, data: data, to: receiver, options: options))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let id): return id
        case .failure(let error) where index == 0: throw error
        case .failure(let error): throw StageFailure(.tester, "tester node \(index) refused its send: \(error)")
        }
    }

    /// Sends `dictionary` from node `index` and waits until node `reporter` reports it received
    /// (within `timeout`, the air timeout by default). As a marker it is a witness by order: a
    /// tester handles one peer's frames in order and forwards before it reports, so once a tester
    /// reports it, whatever came before it on that link has been handled; the subject need not
    /// keep that order, so absence on the subject also takes ``watch(_:for:from:what:_:)``. Not seeing
    /// the report means `precondition` was not met, and `unproven` says what cannot be judged.
    @discardableResult
    public func sendReported(from index: Int, _ dictionary: [String: TransmitterValue], to receiver: UserID?, options: SendingOptions,
                             reportedBy reporter: Int, within timeout: Duration? = nil, precondition: Precondition,
                             unproven: String) async throws -> PacketID {
        let id = try await send(from: index, dictionary: dictionary, to: receiver, options: options)
        try await reported(id, by: reporter, within: timeout, precondition: precondition, unproven: unproven)
        return id
    }

    /// Waits until node `reporter` reports packet `id` received (within `timeout`, the air
    /// timeout by default); not seeing it means `precondition` was not met.
    public func reported(_ id: PacketID, by reporter: Int, within timeout: Duration? = nil, precondition: Precondition,
                         unproven: String) async throws {
        guard await logs[reporter].received(id, within: timeout ?? airTimeout) != nil else {
            throw StageFailure(precondition, "node \(reporter) never reported packet \(id), so \(unproven)")
        }
    }

    /// How long a case watches for a packet that must not arrive, once a marker sent after it
    /// at `sent` has been reported: three times the marker's delay, from 5 s to 30 s, for an
    /// implementation that lets the marker overtake; a slow machine stretches the watch instead
    /// of passing a report that came late. What comes later still is not seen.
    public static func quietWindow(since sent: ContinuousClock.Instant) -> Duration {
        min(maximumQuietWindow, max(minimumQuietWindow, (ContinuousClock.now - sent) * 3))
    }

    /// The shortest ``quietWindow(since:)``.
    public static let minimumQuietWindow: Duration = .seconds(5)
    /// The longest ``quietWindow(since:)``: within a case's 60 s timeout.
    public static let maximumQuietWindow: Duration = .seconds(30)

    /// Watches node `index` for `window`: the first event `matches` picks (recorded from the
    /// `start`th on, before or during the window), or nil when none came. A node whose event
    /// stream ended shows nothing however it behaves, so that is a `StageFailure`, never silence.
    public func watch(_ index: Int, for window: Duration, from start: Int = 0, what: String,
                      _ matches: @escaping @Sendable (TransmitterEvent) -> Bool) async throws -> TransmitterEvent? {
        let seen = await logs[index].first(within: window, from: start, where: matches)
        if seen == nil, logs[index].ended {
            throw StageFailure(index == 0 ? .start : .tester, "node \(index)'s events ended while it was watched for \(what): its silence proves nothing")
        }
        return seen
    }

    /// Stops the subject and waits for its `stopped`; with `seenBy`, also for that node to see
    /// `subject` leave, so a start after this meets it afresh (a restart before the tester saw
    /// the link drop can find it still holding the old one).
    public func stopSubject(seenBy tester: (index: Int, subject: UserID)? = nil) async throws {
        let marks = logs.map { $0.events.count }
        await subject.stop()
        _ = try await wait(0, for: "stopped", from: marks[0], precondition: .start) { $0 == .stopped }
        if let tester {
            _ = try await wait(tester.index, for: "node \(tester.index) seeing the subject leave", from: marks[tester.index]) { $0 == .disconnected(tester.subject) }
        }
    }

    /// Stops every node (cases end with their transmitters stopped).
    func stopAll() async {
        for node in nodes { await node.stop() }
    }
}

/// A BFT case: a check on a stage of `nodes` transmitters, and the deliberate defects of the
/// reference under which it must fail (the variant test runs it there).
public protocol TransmitterCase: ConformanceCase {
    var nodes: Int { get }
    /// The defects that, together, make the reference misbehave in the way this case checks.
    var brokenBy: Set<Defect> { get }
    /// Whether the case expects the subject to refuse for a documented reason (`judgeRefusal`):
    /// the variant test then also runs it with ``Defect/refusesForWrongReason`` and expects `fail`.
    var judgesRefusals: Bool { get }
    /// The iOS-like nodes that reach each other over Wi-Fi peer-to-peer (the TCP link); empty
    /// for the BLE-only cases.
    var wifiNodes: Set<Int> { get }
    // issue 14: BFT/SIZE with an Android peer
    /// The nodes with both links (BLE and Wi-Fi peer-to-peer) and the platform each announces;
    /// empty for the others.
    var platforms: [Int: DevicePlatform] { get }
    /// Whether the case judges the run's captures, so it runs only over controllers: the
    /// in-process variant tests leave it to the btvirt ones (RunTransmitterTests).
    var judgesCaptures: Bool { get }
    func check(_ stage: TransmitterStage) async throws -> CaseOutcome
}

extension TransmitterCase {
    public var judgesRefusals: Bool { false }
    public var wifiNodes: Set<Int> { [] }
    // issue 14: BFT/SIZE with an Android peer
    public var platforms: [Int: DevicePlatform] { [:] }
    public var judgesCaptures: Bool { false }
    public var needs: CaseNeeds { CaseNeeds(controllers: nodes, transmitters: nodes) }

    public func run(_ context: CaseContext) async throws -> CaseOutcome {
        let stage: TransmitterStage
        do {
            stage = try await TransmitterStage.make(context, count: nodes, wifi: wifiNodes, platforms: platforms)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable(unavailable.reason)
        }
        // Whatever ended the check, a node log that overflowed hid events from it: an error.
        let outcome: CaseOutcome
        do {
            outcome = try await check(stage)
        } catch let failure as StageFailure {
            outcome = failure.outcome(optional: context.optionalPreconditions)
        } catch let refusal as TransmitterError {
            // Only the subject's calls throw transmitter errors out of a check.
            outcome = .fail("the implementation refused: \(refusal)")
        } catch {
            await stage.stopAll()
            throw error
        }
        await stage.stopAll()
        return outcome.unlessOverflowed(stage.logs.map(\.overflow))
    }
}
