import BlueproofAsync
import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofWire
import Foundation
import Synchronization

/// What a BLN case runs on: the subject's Bluenet library (node 0) and the testers on the
/// other nodes of the same air, which advertise as plain devices or as simulated Crownstones.
final class BluenetStage: Sendable {
    let context: CaseContext
    let subject: any BluenetControl
    private let crownstones = Mutex<[SimulatedCrownstone]>([])

    /// How long a case waits for something the subject should do on the air.
    static let airWait: Duration = .seconds(15)
    /// How long a case watches for something the subject must not publish (an absence).
    static let quietWait: Duration = .seconds(2)
    /// How long ``everyInterval(after:)`` watches: four ranging intervals and a half (of the document's 1 s).
    static let intervalWatch: Duration = .milliseconds(4500)
    /// The quiet window (``CaseNeeds/quietWindow``) of a case that spends about `seconds` idle
    /// on the subject's own timers: ranging rounds (one a second), a connect or disconnect
    /// timeout. A scheduling hint for `run --jobs N`, never part of a verdict.
    static func timerWait(_ seconds: Int) -> Duration { .seconds(seconds) }

    init(context: CaseContext, subject: any BluenetControl) {
        self.context = context
        self.subject = subject
    }

    var publications: BluenetPublicationLog { subject.publications }

    var connectTimeout: Duration { context.bluenetConnectTimeout }
    var disconnectTimeout: Duration { context.bluenetDisconnectTimeout }
    /// How long a link the subject ends may take to end at the tester: the timeout and 3 s more.
    var disconnectWait: Duration { disconnectTimeout + .seconds(3) }

    /// The plain tester's service data: UUID 180F with octets across the whole 0–255 range.
    static let plainService = BluetoothUUID(uuid16: 0x180F)
    static let plainBytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]

    /// Starts node `node` advertising as a plain device (its name, and ``plainBytes`` under
    /// ``plainService`` in its scan response); its name. Testers are known by name: the handle
    /// is the subject's own name for a device (on iOS a UUID per phone).
    func plainDevice(_ node: Int) async throws -> String {
        let host = try context.host(node)
        let name = "plain\(node)"
        try await host.startAdvertising(LEAdvertisingParameters(
            data: try AdvertisingData([.flags(.generalDiscoverableLEOnly), .localName(name)]).encodedLegacy(),
            scanResponse: try AdvertisingData([.serviceData(ServiceData(uuid: Self.plainService, data: Self.plainBytes))]).encodedLegacy()))
        return name
    }

    /// Starts a simulated Crownstone advertising `state` on node `node`: its name and its events.
    func crownstone(_ node: Int, state: CrownstoneServiceData = CrownstoneServiceData(
        crownstoneId: 7, crownstoneStateId: 0, switchState: 0, eventBitmask: 0, powerUsage: 0, accumulatedEnergy: 0))
        async throws -> (name: String, events: EventLog<SimulatedCrownstone.Event>) {
        let name = "crownstone\(node)"
        let crownstone = SimulatedCrownstone(host: try context.host(node), state: state, name: name)
        crownstones.withLock { $0.append(crownstone) }
        let events = EventLog(crownstone.events)
        try await crownstone.start()
        return (name, events)
    }

    /// The first advertisement the subject publishes of the device named `name` (with service
    /// data when `withServiceData`: the scan response merged in), nil when none within ``airWait``.
    func advertisement(from name: String, withServiceData: Bool = false) async -> BluenetPublication? {
        await publications.first(within: Self.airWait) {
            $0.topic == .advertisementData && $0.name == name && (!withServiceData || $0.fields?["serviceData"] != nil)
        }
    }

    /// Publications after the first `start` that `matches` picks, once `window` (by default
    /// ``quietWait``) passed: the time the subject is given to publish what it must not.
    func publishedWhileQuiet(from start: Int = 0, for window: Duration = quietWait,
                             _ matches: @escaping @Sendable (BluenetPublication) -> Bool) async -> [BluenetPublication] {
        _ = await publications.first(within: window, from: start) { _ in false }
        return publications.events.dropFirst(start).filter(matches)
    }

    /// The subject's own events on `first`'s topic from `first` on, watched four ranging
    /// intervals and a half on the case's clock (the one real-time wait about time), judged by
    /// ``BluenetIntervalJudgement`` beside the runner's own ticker (a tenth of the interval).
    /// A watch the ticker calls too loaded to judge is watched once more, from its last event;
    /// the second judgement stands.
    func everyInterval(after first: BluenetPublication) async -> BluenetIntervalJudgement {
        let interval = Duration.seconds((try? context.profile.int("bluenet.ranging_interval_s")) ?? 1)
        let watch = interval * 4 + interval / 2
        var (from, again) = (first, true)
        while true {
            async let lateness = BluenetIntervalJudgement.tickerLateness(over: watch, step: interval / 10)
            _ = await publications.first(within: watch) { _ in false }
            let events = publications.events.filter { $0.topic == from.topic && $0.subscription == nil && $0.at >= from.at }
            let judgement = BluenetIntervalJudgement(events: events.map { $0.at - from.at }, interval: interval, watch: watch,
                                                     lateness: await lateness, topic: "\(from.topic)")
            guard judgement.verdict == .disturbed, again, let last = events.last else { return judgement }
            (from, again) = (last, false)
        }
    }

    /// A radio-proxy scenario: the subject at the origin and each tester at its position (path
    /// loss from -59 dBm at 1 m, exponent 2: about -65 dBm at 2 m), reports repeated every 100 ms,
    /// and `faults` (scenario lines under `faults:`, indented by two).
    static func scenario(testers: [(name: String, x: Int, y: Int)], faults: [String] = []) -> String {
        var lines = ["seed: 1", "advertising-interval: 100ms", "sensitivity: -100", "nodes:", "  - name: subject"]
        for tester in testers { lines += ["  - name: \(tester.name)", "    position: [\(tester.x), \(tester.y)]"] }
        lines += ["rssi:", "  path-loss: {tx-power: -59, exponent: 2}"]
        if !faults.isEmpty { lines += ["faults:"] + faults.map { "  " + $0 } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How much later than the harness's own timer of the same length (``timed(_:timeout:_:)``)
    /// the subject may report a timeout: scheduling on a loaded machine, not a longer timeout.
    static let timerLateness: Duration = .seconds(1)
    /// How long past a timeout a case waits before it calls the subject's promise never settled.
    static let settleGrace: Duration = .seconds(3)

    /// A promise of the subject, timed beside a harness timer of `timeout` started with it. On a
    /// loaded machine both run late together, so "gives up after the timeout" is judged against
    /// that timer (``TimedOutcome/untimely(earliest:)``), not against the wall alone.
    func timed(_ what: String, timeout: Duration, _ call: @escaping @Sendable (any BluenetControl) async -> BluenetOutcome) async -> TimedOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        async let timer = Self.fired(timeout, from: start, on: clock)
        let outcome = await settle(what, within: timeout + Self.settleGrace, call)
        let took = start.duration(to: clock.now)
        return TimedOutcome(outcome: outcome, took: took, timeout: timeout, timer: await timer)
    }

    /// When a timer of `timeout` started at `start` fired, from `start`.
    private static func fired(_ timeout: Duration, from start: ContinuousClock.Instant, on clock: ContinuousClock) async -> Duration {
        try? await clock.sleep(until: start + timeout)
        return start.duration(to: clock.now)
    }

    /// How a promise of the subject ended, or nil when it did not within `limit`.
    func settle(_ what: String, within limit: Duration, _ call: @escaping @Sendable (any BluenetControl) async -> BluenetOutcome)
        async -> BluenetOutcome? {
        let subject = subject
        return try? await withTimeout(limit, what: what) { await call(subject) }
    }

    /// The handle the subject published for the device named `name` (it must be scanning);
    /// none within ``airWait`` is a precondition not met.
    func publishedHandle(of name: String) async throws -> String {
        guard let handle = await advertisement(from: name)?.handle else {
            throw BluenetCaseStopped.preconditionNotMet("the subject published no advertisement with a handle of \(name) within \(Self.airWait)")
        }
        return handle
    }

    /// Starts a simulated Crownstone on `node` and has the subject scan for Crownstones until it
    /// publishes it: the Crownstone and the handle the subject gave it (scanning stopped).
    func heardCrownstone(_ node: Int) async throws -> (crownstone: (name: String, events: EventLog<SimulatedCrownstone.Event>), handle: String) {
        try await subject.startScanning(.crownstones)
        let crownstone = try await crownstone(node)
        let handle = try await publishedHandle(of: crownstone.name)
        await subject.stopScanning()
        return (crownstone, handle)
    }

    /// Has the subject scan for Crownstones until it hears the one on `node`, then connect to
    /// it by the handle it published; a subject that cannot is a precondition not met (an
    /// error, not a verdict on the rule).
    func connectedCrownstone(_ node: Int) async throws -> (name: String, events: EventLog<SimulatedCrownstone.Event>) {
        let (crownstone, handle) = try await heardCrownstone(node)
        let outcome = await settle("connect(\(handle))", within: Self.airWait) { await $0.connect(handle) }
        guard outcome == .fulfilled else {
            throw BluenetCaseStopped.preconditionNotMet("connect(\(handle)) to the simulated Crownstone: \(outcome.map { "\($0)" } ?? "not settled within \(Self.airWait)")")
        }
        return crownstone
    }

    func stop() async {
        await subject.stop()
        for crownstone in crownstones.withLock({ $0 }) { await crownstone.stop() }
    }
}

/// A promise timed by ``BluenetStage/timed(_:timeout:_:)``.
struct TimedOutcome: Sendable {
    /// How it ended; nil when not within the timeout and ``BluenetStage/settleGrace``.
    let outcome: BluenetOutcome?
    /// When it ended (or the wait gave up), from the call.
    let took: Duration
    let timeout: Duration
    /// When the harness's own timer of `timeout`, started with the call, fired.
    let timer: Duration

    /// Why the time it ended breaks "gives up after the timeout": before `earliest` (by default
    /// the timeout), or more than ``BluenetStage/timerLateness`` after the harness's timer (a
    /// longer timeout); nil when on time.
    func untimely(earliest: Duration? = nil) -> String? {
        let earliest = earliest ?? timeout
        if took < earliest { return "after \(took), before \(earliest)" }
        if took > timer + BluenetStage.timerLateness {
            return "after \(took), \(took - timer) after the harness's own \(timeout) timer started with it fired (more than \(BluenetStage.timerLateness) late: a longer timeout)"
        }
        return nil
    }
}

/// A BLN case stopped before its script concluded, with the verdict that calls for:
/// `ruleBroken`, the subject broke a documented rule while the case set up another (`fail`: a
/// ranging round split over several iBeaconAdvertisements, say); `preconditionNotMet`, the case
/// could not set up what its rule is about (`error`).
struct BluenetCaseStopped: Error, CustomStringConvertible {
    let outcome: CaseOutcome

    static func ruleBroken(_ reason: String) -> Self { Self(outcome: .fail(reason)) }
    static func preconditionNotMet(_ reason: String) -> Self { Self(outcome: .error("precondition not met: \(reason)")) }

    var description: String { outcome.reason }
}

extension BluenetPublication {
    /// The data object, parsed; nil when it is not a JSON object.
    var fields: [String: Any]? { Self.parse(object) }

    /// The advertisement's handle and name; nil when it has none.
    var handle: String? { fields?["handle"] as? String }
    var name: String? { fields?["name"] as? String }

    /// Whether the advertisement carries a Crownstone object (under a Crownstone service UUID).
    var isCrownstone: Bool {
        guard let data = fields?["serviceData"] as? [String: Any] else { return false }
        return CrownstoneServiceData.crownstoneServiceUUIDs.contains { data[$0.description] != nil }
    }

    /// `text` as a JSON array of objects (an iBeaconAdvertisement's data); nil when it is not one.
    static func parseArray(_ text: String) -> [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
    }

    static func parse(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}

extension CaseContext {
    /// The profile's connect timeout ("Methods": connect, 3 s).
    var bluenetConnectTimeout: Duration { .seconds((try? profile.int("bluenet.connect_timeout_s")) ?? 3) }
    /// The profile's disconnect timeout ("Methods": disconnect, 2 s).
    var bluenetDisconnectTimeout: Duration { .seconds((try? profile.int("bluenet.disconnect_timeout_s")) ?? 2) }
}
