import BlueproofWire

/// Bluenet Localization, sans I/O (bluenet-lib-ios README, "Bluenet Localization"). The host
/// hands in every iBeacon it hears and ticks the core with its clock; the core publishes:
///
/// - "iBeaconAdvertisement" once a ranging interval with the tracked beacons heard in it
///   (their mean RSSI), sorted by idString; nothing before ``trackUUID(_:groupId:)``;
/// - "enterRegion" when a tracked group's beacon is first ranged, "exitRegion" when none has
///   been for ``Configuration/regionExitAfter``;
/// - once a fingerprint is loaded or finalized for a group, each round with at least
///   ``Configuration/minimumBeacons`` of the group's beacons: "exitLocation" (old) then
///   "enterLocation" (new) when the prediction changes, and "currentLocation". Leaving the
///   region forgets the location without "exitLocation".
///
/// Time is the caller's (`now`, from any fixed origin): the core reads no clock and runs no timer.
public struct BluenetLocalization {
    public struct Configuration: Hashable, Sendable {
        /// "Once a second" (README, "Events").
        public var rangingInterval: Duration = .seconds(1)
        /// "When there are less than 3 iBeacons in range, there will not be a prediction."
        public var minimumBeacons = 3
        /// How long a region goes unheard before it is left. The README does not say; iOS
        /// reports a region exit after about this long without its beacons.
        public var regionExitAfter: Duration = .seconds(30)

        public init() {}
    }

    public let configuration: Configuration
    public private(set) var bus = BluenetEventBus()
    public private(set) var collection = FingerprintCollection()
    /// Tracked proximity UUID → group id.
    public private(set) var tracked: [BluetoothUUID: String] = [:]
    /// Groups inside their region, with when their beacons were last ranged.
    public private(set) var insideRegions: [String: Duration] = [:]
    /// The current location of each group that has one.
    public private(set) var currentLocations: [String: String] = [:]

    private var classifiers: [String: LocationClassifier] = [:]
    private var fingerprints: [String: [String: Fingerprint]] = [:]
    private var heard: [String: (beacon: IBeacon, sum: Int, count: Int)] = [:]
    private var lastRound: Duration?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    @discardableResult
    public mutating func on(_ topic: BluenetTopic, _ callback: @escaping BluenetEventBus.Callback) -> Int { bus.on(topic, callback) }
    @discardableResult
    public mutating func off(_ id: Int) -> Bool { bus.off(id) }

    /// Ranges beacons of `uuid` (the 36-character form) for group `groupId`. Tracking a UUID
    /// again moves it to the new group.
    public mutating func trackUUID(_ uuid: String, groupId: String) throws(BluenetError) {
        guard let parsed = BluetoothUUID(uuid), uuid.count == 36 else { throw .identifier("\"\(uuid.prefix(64))\" is not a 36-character UUID") }
        try Self.check(groupId)
        guard tracked[parsed] != nil || tracked.count < BluenetLimits.trackedRegionsMaximum else {
            throw .tooManyRegions(limit: BluenetLimits.trackedRegionsMaximum)
        }
        tracked[parsed] = groupId
    }

    /// An iBeacon heard at `rssi` dBm. Untracked UUIDs, RSSI outside -127...20 (127 is "not
    /// available") and beacons beyond ``BluenetLimits/rangedBeaconsMaximum`` in one round are ignored.
    public mutating func receive(_ beacon: IBeacon, rssi: Int) {
        guard tracked[beacon.proximityUUID] != nil, BluenetLimits.rssiRange.contains(rssi) else { return }
        let id = beacon.idString
        guard heard[id] != nil || heard.count < BluenetLimits.rangedBeaconsMaximum else { return }
        let previous = heard[id] ?? (beacon, 0, 0)
        heard[id] = (beacon, previous.sum + rssi, previous.count + 1)
    }

    /// Advances time; runs a ranging round when a ranging interval has passed since the last
    /// (the first tick starts the rounds).
    public mutating func tick(now: Duration) {
        guard let last = lastRound else {
            lastRound = now
            return
        }
        guard now - last >= configuration.rangingInterval else { return }
        lastRound = now
        round(now: now)
    }

    // MARK: Fingerprints ("Methods")

    public mutating func startCollectingFingerprint() throws(BluenetError) { try collection.start() }
    public mutating func pauseCollectingFingerprint() throws(BluenetError) { try collection.pause() }
    public mutating func resumeCollectingFingerprint() throws(BluenetError) { try collection.resume() }
    public mutating func abortCollectingFingerprint() { collection.abort() }

    /// Ends the collection and stores it for `groupId` and `locationId`.
    public mutating func finalizeFingerprint(groupId: String, locationId: String) throws(BluenetError) {
        try Self.check(groupId)
        try Self.check(locationId)
        try checkRoom(groupId: groupId, locationId: locationId)
        loadChecked(groupId: groupId, locationId: locationId, try collection.finalize())
    }

    public mutating func loadFingerprint(groupId: String, locationId: String, fingerprint: Fingerprint) throws(BluenetError) {
        try Self.check(groupId)
        try Self.check(locationId)
        try checkRoom(groupId: groupId, locationId: locationId)
        loadChecked(groupId: groupId, locationId: locationId, fingerprint)
    }

    public func getFingerprint(groupId: String, locationId: String) -> Fingerprint? {
        fingerprints[groupId]?[locationId]
    }

    // MARK: Internals

    private mutating func loadChecked(groupId: String, locationId: String, _ fingerprint: Fingerprint) {
        fingerprints[groupId, default: [:]][locationId] = fingerprint
        classifiers[groupId, default: LocationClassifier(minimumBeacons: configuration.minimumBeacons)].load(locationId, fingerprint)
    }

    private func checkRoom(groupId: String, locationId: String) throws(BluenetError) {
        let groups = fingerprints.count + (fingerprints[groupId] == nil ? 1 : 0)
        let locations = (fingerprints[groupId]?.count ?? 0) + (fingerprints[groupId]?[locationId] == nil ? 1 : 0)
        guard groups <= BluenetLimits.trackedRegionsMaximum, locations <= BluenetLimits.trackedRegionsMaximum else {
            throw .tooManyRegions(limit: BluenetLimits.trackedRegionsMaximum)
        }
    }

    private static func check(_ identifier: String) throws(BluenetError) {
        guard !identifier.isEmpty, identifier.count <= BluenetLimits.identifierMaximum else {
            throw .identifier("an id of \(identifier.count) characters (1 to \(BluenetLimits.identifierMaximum))")
        }
    }

    private mutating func round(now: Duration) {
        let ranged = heard.values
            .map { (group: tracked[$0.beacon.proximityUUID], packet: IBeaconPacket(beacon: $0.beacon, rssi: Int((Double($0.sum) / Double($0.count)).rounded()))) }
            .sorted { $0.packet.idString < $1.packet.idString }
        heard = [:]
        let packets = ranged.map(\.packet)
        if !packets.isEmpty { bus.publish(.iBeaconAdvertisement(packets)) }
        collection.add(packets)

        var byGroup: [String: [IBeaconPacket]] = [:]
        for (group, packet) in ranged {
            guard let group else { continue }
            byGroup[group, default: []].append(packet)
        }
        for group in byGroup.keys.sorted() {
            if insideRegions[group] == nil { bus.publish(.enterRegion(groupId: group)) }
            insideRegions[group] = now
        }
        for (group, seen) in insideRegions.sorted(by: { $0.key < $1.key }) where now - seen >= configuration.regionExitAfter {
            insideRegions[group] = nil
            currentLocations[group] = nil
            bus.publish(.exitRegion(groupId: group))
        }
        for (group, groupPackets) in byGroup.sorted(by: { $0.key < $1.key }) {
            classify(group: group, groupPackets)
        }
    }

    private mutating func classify(group: String, _ packets: [IBeaconPacket]) {
        guard let classifier = classifiers[group] else { return }
        let readings = Dictionary(packets.map { ($0.idString, $0.rssi) }, uniquingKeysWith: { first, _ in first })
        guard let location = classifier.predict(readings) else { return }
        let previous = currentLocations[group]
        if previous != location {
            if let previous { bus.publish(.exitLocation(locationId: previous)) }
            bus.publish(.enterLocation(locationId: location))
            currentLocations[group] = location
        }
        bus.publish(.currentLocation(locationId: location))
    }
}
