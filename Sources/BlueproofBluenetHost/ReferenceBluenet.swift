import BlueproofAsync
import BlueproofBluenet
import BlueproofHost
import Synchronization

/// The reference Bluenet library as a BLN case's subject: the sans-I/O core on the case's LE
/// host through ``BluenetHost``, its deadlines on the case's clock. Every advertisement it
/// publishes is logged with its time and both JSON forms, up to `BluenetPublication.maximumPerLibrary`
/// (past it counted, not kept: `publications.overflow`).
public final class ReferenceBluenet<C: Clock>: BluenetControl where C.Duration == Duration {
    public let bluenet: BluenetHost<C>
    public let publications = BluenetPublicationLog(limit: BluenetPublication.maximumPerLibrary)
    private let recorder: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let clock: C
    private let origin: C.Instant


    /// The library on `host` (already started): isReady fulfils from now on. `beaconReader`
    /// reads iBeacons (a broken variant injects its own).
    public init(host: LEHost, clock: C, connection: BluenetConnection.Configuration = .init(),
                localization: BluenetLocalization.Configuration = .init(), beaconReader: @escaping IBeaconReader = standardIBeaconReader) async {
        bluenet = BluenetHost(host: host, clock: clock, configuration: connection, localization: localization, beaconReader: beaconReader)
        self.clock = clock
        let origin = clock.now
        self.origin = origin
        let stream = bluenet.advertisements
        let log = publications
        recorder.withLock {
            $0 = Task {
                for await advertisement in stream {
                    let text = advertisement.stringify()
                    log.record(BluenetPublication(at: origin.duration(to: clock.now), topic: .advertisementData,
                                                  object: text, stringified: text))
                }
            }
        }
        await bluenet.hostStarted()
        for topic in BluenetTopic.allCases where topic != .advertisementData { _ = await subscribe(topic, logging: { nil }) }
    }

    /// The data of `event` as JSON text: the library's stringify of the object, or the id as a JSON string.
    static func text(of event: BluenetEvent) -> String {
        switch event {
        case let .advertisementData(advertisement): advertisement.stringify()
        case let .iBeaconAdvertisement(packets): "[" + packets.map { $0.stringify() }.joined(separator: ",") + "]"
        case let .enterRegion(id), let .exitRegion(id), let .enterLocation(id), let .exitLocation(id), let .currentLocation(id):
            BluenetPublication.canonical([id]).map { String($0.dropFirst().dropLast()) } ?? "null"
        }
    }

    /// Subscribes to `topic`, logging each delivery under the id `logging` gives (nil: the control's own).
    private func subscribe(_ topic: BluenetTopic, logging subscription: @escaping @Sendable () -> Int?) async -> Int {
        let (log, clock, origin) = (publications, clock, origin)
        return await bluenet.on(topic) { event in
            let text = Self.text(of: event)
            log.record(BluenetPublication(at: origin.duration(to: clock.now), topic: event.topic, object: text, stringified: text,
                                          subscription: subscription()))
        }
    }

    public func isReady() async { await bluenet.isReady() }
    public func startScanning(_ filter: BluenetScanFilter) async throws { try await bluenet.startScanning(filter) }
    public func stopScanning() async { await bluenet.stopScanning() }

    public func on(_ topic: BluenetTopic) async -> Int {
        let subscription = SubscriptionSlot()
        let id = await subscribe(topic) { subscription.id.withLock { $0 } }
        subscription.id.withLock { $0 = id }
        return id
    }

    public func trackUUID(_ uuid: String, groupId: String) async throws { try await bluenet.trackUUID(uuid, groupId: groupId) }

    public func off(_ id: Int) async -> Bool { await bluenet.off(id) }

    public func startCollectingFingerprint() async throws { try await bluenet.startCollectingFingerprint() }
    public func pauseCollectingFingerprint() async throws { try await bluenet.pauseCollectingFingerprint() }
    public func resumeCollectingFingerprint() async throws { try await bluenet.resumeCollectingFingerprint() }
    public func abortCollectingFingerprint() async { await bluenet.abortCollectingFingerprint() }
    public func finalizeFingerprint(groupId: String, locationId: String) async throws {
        try await bluenet.finalizeFingerprint(groupId: groupId, locationId: locationId)
    }
    public func loadFingerprint(groupId: String, locationId: String, fingerprint: String) async throws {
        try await bluenet.loadFingerprint(groupId: groupId, locationId: locationId, fingerprint: try Fingerprint(string: fingerprint))
    }
    public func getFingerprint(groupId: String, locationId: String) async -> String? {
        await bluenet.getFingerprint(groupId: groupId, locationId: locationId)?.stringify()
    }

    public func connect(_ handle: String) async -> BluenetOutcome { await bluenet.connect(handle) }
    public func disconnect() async -> BluenetOutcome { await bluenet.disconnect() }
    public func setSwitchState(_ state: Double) async -> BluenetOutcome { await bluenet.setSwitchState(state) }

    public func stop() async {
        await bluenet.stop()
        recorder.withLock { $0?.cancel() }
        publications.end()
    }
}

/// A subscription's id, known once "on" returned, for the deliveries its callback logs.
private final class SubscriptionSlot: Sendable {
    let id = Mutex<Int?>(nil)
}
