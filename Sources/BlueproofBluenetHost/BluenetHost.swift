import BlueproofBluenet
import BlueproofHost
import BlueproofWire

/// How the host reads an iBeacon from an advertisement's data (``IBeacon/init(advertisingData:)``
/// unless a caller injects another).
public typealias IBeaconReader = @Sendable (AdvertisingData) -> IBeacon?
/// The standard reader: Apple's type 0x02 frames only.
public let standardIBeaconReader: IBeaconReader = { IBeacon(advertisingData: $0) }

/// Bluenet on an LE host: the I/O half of ``BluenetScanner`` and ``BluenetConnection``
/// (bluenet-lib-ios README, "Bluenet (BLE)" and "Methods"). Advertising reports of an active
/// scan (ADV_IND and SCAN_RSP merged per device) become scan reports; the connection core's
/// actions become LE connect, disconnect and a GATT write of the switch command to the
/// Crownstone's control characteristic; its deadlines run on `clock`. A device's handle is its
/// address as text ("AA:BB:CC:DD:EE:FF").
public actor BluenetHost<C: Clock> where C.Duration == Duration {
    public let host: LEHost
    private let clock: C
    private let origin: C.Instant
    private var scanner = BluenetScanner()
    private var localization: BluenetLocalization
    private var rangingTask: Task<Void, Never>?
    private var connection: BluenetConnection
    private var devices = LEDeviceList()
    private var scanTask: Task<Void, Never>?
    private var tickTask: Task<Void, Never>?
    /// The latest LE connection attempt.
    private var connectTask: Task<Void, Never>?
    private var links: [String: LEConnection] = [:]
    private var controlHandles: [String: UInt16] = [:]
    private var waiters: [Int: CheckedContinuation<BluenetOutcome, Never>] = [:]
    private var outcomes: [Int: BluenetOutcome] = [:]
    private let advertisementStream: AsyncStream<BluenetAdvertisement>
    private let advertisementContinuation: AsyncStream<BluenetAdvertisement>.Continuation
    private let beaconReader: IBeaconReader

    /// Advertisements kept for a reader that lags (the newest are kept).
    public static var advertisementBuffer: Int { 1024 }
    /// Devices (and malformed reports) remembered from scanning; past this the list starts over.
    public static var deviceMaximum: Int { 4096 }

    /// The library on `host` with its deadlines on `clock`; the connection timeouts, the
    /// localization's figures and the iBeacon reader are the documented ones unless given.
    public init(host: LEHost, clock: C, configuration: BluenetConnection.Configuration = .init(),
                localization: BluenetLocalization.Configuration = .init(),
                beaconReader: @escaping IBeaconReader = standardIBeaconReader) {
        self.host = host
        self.beaconReader = beaconReader
        self.localization = BluenetLocalization(configuration: localization)
        self.clock = clock
        origin = clock.now
        connection = BluenetConnection(configuration: configuration)
        (advertisementStream, advertisementContinuation) = AsyncStream.makeStream(
            of: BluenetAdvertisement.self, bufferingPolicy: .bufferingNewest(Self.advertisementBuffer))
        let continuation = advertisementContinuation
        scanner.on(.advertisementData) { event in
            if case let .advertisementData(advertisement) = event { continuation.yield(advertisement) }
        }
    }

    private var now: Duration { origin.duration(to: clock.now) }

    // MARK: Events

    /// "on(topic, callback)": `callback` gets every event published on `topic` from now on;
    /// the id (never one handed out before) is for ``off(_:)``. The localization topics are
    /// Bluenet Localization's, with ids of their own.
    @discardableResult
    public func on(_ topic: BluenetTopic, _ callback: @escaping @Sendable (BluenetEvent) -> Void) -> Int {
        topic == .advertisementData ? scanner.on(topic, callback) : -localization.on(topic, callback)
    }

    /// "off(id)": ends that subscription; false when there was none.
    @discardableResult
    public func off(_ id: Int) -> Bool { id < 0 ? localization.off(-id) : scanner.off(id) }

    // MARK: Localization

    /// "trackUUID(uuid, groupId)": ranges iBeacons of `uuid` for `groupId`, scanning (without
    /// publishing advertisements unless a scan was started) and running a ranging round each
    /// interval on the clock.
    public func trackUUID(_ uuid: String, groupId: String) async throws {
        try localization.trackUUID(uuid, groupId: groupId)
        try await listen()
        guard rangingTask == nil else { return }
        let interval = localization.configuration.rangingInterval
        localization.tick(now: now)
        rangingTask = Task { [clock, weak self] in
            while (try? await clock.sleep(for: interval)) != nil {
                guard let self else { return }
                await self.rangingTick()
            }
        }
    }

    private func rangingTick() { localization.tick(now: now) }

    // MARK: Fingerprints ("Methods"; the core's FingerprintCollection)

    /// "startCollectingFingerprint()", "pauseCollectingFingerprint()", "resumeCollectingFingerprint()",
    /// "abortCollectingFingerprint()": the ranging rounds the collection takes in.
    public func startCollectingFingerprint() throws(BluenetError) { try localization.startCollectingFingerprint() }
    public func pauseCollectingFingerprint() throws(BluenetError) { try localization.pauseCollectingFingerprint() }
    public func resumeCollectingFingerprint() throws(BluenetError) { try localization.resumeCollectingFingerprint() }
    public func abortCollectingFingerprint() { localization.abortCollectingFingerprint() }

    /// "finalizeFingerprint(groupId, locationId)": stores the collection and loads it into the classifier.
    public func finalizeFingerprint(groupId: String, locationId: String) throws(BluenetError) {
        try localization.finalizeFingerprint(groupId: groupId, locationId: locationId)
    }

    /// "loadFingerprint(groupId, locationId, fingerprint)" and "getFingerprint(groupId, locationId)".
    public func loadFingerprint(groupId: String, locationId: String, fingerprint: Fingerprint) throws(BluenetError) {
        try localization.loadFingerprint(groupId: groupId, locationId: locationId, fingerprint: fingerprint)
    }

    public func getFingerprint(groupId: String, locationId: String) -> Fingerprint? {
        localization.getFingerprint(groupId: groupId, locationId: locationId)
    }

    /// Stops scanning and ranging: nothing more is published on any topic.
    public func stop() {
        scanner.stopScanning()
        rangingTask?.cancel()
        rangingTask = nil
        scanTask?.cancel()
        scanTask = nil
    }

    // MARK: Scanning

    /// The "advertisementData" topic: every advertisement the current scan publishes.
    public nonisolated var advertisements: AsyncStream<BluenetAdvertisement> { advertisementStream }

    /// The host is started (``LEHost/start()`` returned): "isReady" fulfils from now on.
    public func hostStarted() { scanner.hostReady() }

    /// "isReady()": returns once ``hostStarted()`` was called.
    public func isReady() async {
        await withCheckedContinuation { (ready: CheckedContinuation<Void, Never>) in
            if !scanner.whenReady({ ready.resume() }) { ready.resume() }
        }
    }

    public var ready: Bool { scanner.isReady }

    /// Starts an active scan with `filter` (all, Crownstones, one service), or changes the
    /// filter of the running one.
    public func startScanning(_ filter: BluenetScanFilter) async throws(LEHostError) {
        switch filter {
        case .all: scanner.startScanning()
        case .crownstones: scanner.startScanningForCrownstones()
        case let .service(uuid): scanner.startScanningForService(uuid)
        }
        try await listen()
    }

    /// Starts the LE scan both halves hear from, once.
    private func listen() async throws(LEHostError) {
        guard scanTask == nil else { return }
        let reports = try await host.scan(LEScanParameters(active: true))
        scanTask = Task { [weak self] in
            for await report in reports { await self?.receive(report) }
        }
    }

    /// Stops scanning: nothing more is published (ranging, once a UUID is tracked, goes on).
    public func stopScanning() {
        scanner.stopScanning()
        guard localization.tracked.isEmpty else { return }
        scanTask?.cancel()
        scanTask = nil
    }

    private func receive(_ report: LEAdvertisement) {
        // Bounded against a crowd of advertisers or a stream of malformed reports: start over.
        if devices.devices.count >= Self.deviceMaximum && devices.devices[report.address] == nil
            || devices.malformed.count >= Self.deviceMaximum {
            devices = LEDeviceList()
        }
        _ = devices.add(report)
        // RSSI 127 ("not available") is passed on: the localization core ignores it.
        if let data = try? AdvertisingData(bytes: report.data), let beacon = beaconReader(data) {
            localization.receive(beacon, rssi: Int(report.rssi ?? 127))
        }
        guard let device = devices.devices[report.address] else { return }
        // RSSI 127 is the HCI's "not available" (Vol 4, Part E §7.7.65.2), as btvirt reports.
        scanner.receive(BluenetScanReport(handle: "\(device.address)", rssi: Int(device.rssi ?? 127),
                                          advertisingData: device.advertisingData, scanResponse: device.scanResponse))
    }

    // MARK: Connection

    /// `connect(uuid)`: fulfilled once connected; rejected as the core decides (3 s timeout, aborted, failed).
    public func connect(_ handle: String) async -> BluenetOutcome {
        let request = connection.connect(handle, now: now)
        return await settle(request)
    }

    /// `disconnect()`: fulfilled once disconnected, at once when nothing is connected (2 s timeout).
    public func disconnect() async -> BluenetOutcome {
        let request = connection.disconnect(now: now)
        return await settle(request)
    }

    /// `setSwitchState(state)`: 0 or 1 is written to the connected Crownstone; values between are refused.
    public func setSwitchState(_ value: Double) async -> BluenetOutcome {
        let request = connection.setSwitchState(value)
        return await settle(request)
    }

    private func settle(_ request: Int) async -> BluenetOutcome {
        perform()
        if let outcome = outcomes.removeValue(forKey: request) { return outcome }
        return await withCheckedContinuation { waiters[request] = $0 }
    }

    /// Carries out the core's actions, then arms the tick for its next deadline.
    private func perform() {
        for action in connection.drainActions() {
            switch action {
            case let .connect(handle): open(handle)
            case .cancelConnect:
                // LEHost cancels its own attempt at the same 3 s deadline (LE Create Connection
                // Cancel); a link that still comes up is dropped by the core (`connected`).
                break
            case let .disconnect(handle):
                if let link = links[handle] { Task { [host] in try? await host.disconnect(link) } }
            case let .writeSwitchState(handle, on): write(on, to: handle)
            case let .complete(request, outcome):
                if let waiter = waiters.removeValue(forKey: request) { waiter.resume(returning: outcome) } else { outcomes[request] = outcome }
            }
        }
        armTick()
    }

    private func open(_ handle: String) {
        guard let address = BDAddress(handle) else {
            connection.connectFailed(handle, reason: "\(handle) is not a device address")
            return
        }
        let type = devices.devices[address]?.addressType ?? .publicDevice
        let timeout = connection.configuration.connectTimeout
        // The host makes one attempt at a time: one the core gave up on may still be cancelling.
        let previous = connectTask
        connectTask = Task { [host, weak self] in
            await previous?.value
            await self?.attemptStarted(handle)
            do throws(LEHostError) {
                let link = try await host.connect(to: address, type: type, timeout: timeout)
                await self?.linkUp(handle, link)
            } catch {
                await self?.linkFailed(handle, error)
            }
        }
    }

    private func attemptStarted(_ handle: String) {
        connection.attemptStarted(handle, now: now)
        armTick()
    }

    private func linkUp(_ handle: String, _ link: LEConnection) {
        links[handle] = link
        connection.connected(handle)
        perform()
        Task { [host, weak self] in
            _ = await host.waitForDisconnection(link)
            await self?.linkDown(handle)
        }
    }

    private func linkFailed(_ handle: String, _ error: LEHostError) {
        // The host gave up at the core's own deadline: let the core report its timeout.
        if case .connectTimedOut = error { connection.tick(now: now) }
        connection.connectFailed(handle, reason: "\(error)")
        perform()
    }

    private func linkDown(_ handle: String) {
        links[handle] = nil
        controlHandles[handle] = nil
        connection.disconnected(handle, now: now)
        perform()
    }

    private func write(_ on: Bool, to handle: String) {
        guard let link = links[handle] else {
            connection.switchStateWritten(handle, failure: "no link to \(handle)")
            return
        }
        let known = controlHandles[handle]
        Task { [host, weak self] in
            let gatt = host.gattClient(for: link)
            do {
                let valueHandle: UInt16
                if let known {
                    valueHandle = known
                } else {
                    valueHandle = try await Self.controlHandle(gatt)
                    await self?.remember(valueHandle, for: handle)
                }
                try await gatt.write(handle: valueHandle, value: CrownstoneControlPacket(on: on).bytes)
                await self?.written(handle, failure: nil)
            } catch {
                await self?.written(handle, failure: "\(error)")
            }
        }
    }

    /// The control characteristic's value handle on the peer's server.
    private static func controlHandle(_ gatt: GATTClient) async throws -> UInt16 {
        guard let service = try await gatt.discoverPrimaryService(uuid: CrownstoneControlPacket.crownstoneServiceUUID).first,
              let control = try await gatt.discoverCharacteristics(of: service)
                  .first(where: { $0.uuid == CrownstoneControlPacket.controlCharacteristicUUID }) else {
            throw BluenetError.connection(.failed("no Crownstone control characteristic \(CrownstoneControlPacket.controlCharacteristicUUID)"))
        }
        return control.valueHandle
    }

    private func remember(_ valueHandle: UInt16, for handle: String) { controlHandles[handle] = valueHandle }

    private func written(_ handle: String, failure: String?) {
        connection.switchStateWritten(handle, failure: failure)
        perform()
    }

    // MARK: Time

    /// The deadline the core waits for, if any.
    private var deadline: Duration? {
        switch connection.state {
        case let .connecting(_, _, deadline), let .switchingDevice(_, _, _, _, deadline), let .disconnecting(_, _, deadline): deadline
        case .idle, .connected: nil
        }
    }

    private func armTick() {
        tickTask?.cancel()
        tickTask = nil
        guard let deadline else { return }
        let wait = deadline - now
        tickTask = Task { [clock, weak self] in
            guard (try? await clock.sleep(for: max(wait, .zero))) != nil else { return }
            await self?.tick()
        }
    }

    private func tick() {
        connection.tick(now: now)
        perform()
    }
}

extension BluenetHost where C == ContinuousClock {
    public init(host: LEHost, configuration: BluenetConnection.Configuration = .init()) {
        self.init(host: host, clock: ContinuousClock(), configuration: configuration)
    }
}
