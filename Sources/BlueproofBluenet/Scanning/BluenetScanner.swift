import BlueproofWire

/// The scanning half of Bluenet, sans I/O (bluenet-lib-ios README, "Bluenet (BLE)"): the host
/// reports readiness and advertisements; the scanner publishes "advertisementData" for those
/// that pass the current filter while scanning, and nothing once stopped.
public struct BluenetScanner {
    public private(set) var bus = BluenetEventBus()
    /// Whether the BLE manager is initialised ("isReady").
    public private(set) var isReady = false
    /// The filter of the running scan; nil when not scanning.
    public private(set) var filter: BluenetScanFilter?
    /// Advertisements published since creation.
    public private(set) var published = 0

    public init() {}

    @discardableResult
    public mutating func on(_ topic: BluenetTopic, _ callback: @escaping BluenetEventBus.Callback) -> Int { bus.on(topic, callback) }
    @discardableResult
    public mutating func off(_ id: Int) -> Bool { bus.off(id) }

    private var readyWaiters: [() -> Void] = []

    /// "isReady() -> Promise<Void>": `fulfil` runs once the BLE manager is initialised, at once
    /// when it already is. Waiters are kept in order, at most ``BluenetLimits/readyWaitersMaximum``
    /// (a caller that piles up more is refused: false).
    @discardableResult
    public mutating func whenReady(_ fulfil: @escaping () -> Void) -> Bool {
        if isReady {
            fulfil()
            return true
        }
        guard readyWaiters.count < BluenetLimits.readyWaitersMaximum else { return false }
        readyWaiters.append(fulfil)
        return true
    }

    /// The host's BLE manager finished initialising: fulfils every waiter, once.
    public mutating func hostReady() {
        isReady = true
        let waiters = readyWaiters
        readyWaiters = []
        waiters.forEach { $0() }
    }

    public mutating func startScanning() { filter = .all }
    public mutating func startScanningForCrownstones() { filter = .crownstones }
    public mutating func startScanningForService(_ uuid: BluetoothUUID) { filter = .service(uuid) }
    public mutating func stopScanning() { filter = nil }

    /// One advertising report from the host; published when scanning and the filter passes it.
    public mutating func receive(_ report: BluenetScanReport) {
        guard let filter, filter.matches(report) else { return }
        published += 1
        bus.publish(.advertisementData(BluenetAdvertisement(report: report)))
    }
}
