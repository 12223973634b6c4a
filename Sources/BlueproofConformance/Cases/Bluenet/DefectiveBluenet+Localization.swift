import BlueproofBluenet
import BlueproofBluenetHost
import Synchronization

/// The localization defects of ``DefectiveBluenet`` (BLN/LOC): its fingerprint methods, the
/// classifier configuration the reference under them gets, and how their location events leave it.
extension DefectiveBluenet {
    /// The localization configuration of the reference under `defects` (the beacons a prediction needs).
    public static func localization(_ defects: Set<Defect>) -> BluenetLocalization.Configuration {
        var configuration = BluenetLocalization.Configuration()
        if defects.contains(.bluenetPredictsWithTwoBeacons) { configuration.minimumBeacons = 2 }
        if defects.contains(.bluenetNeedsFourBeacons) { configuration.minimumBeacons = 4 }
        return configuration
    }

    public func startCollectingFingerprint() async throws { try await inner.startCollectingFingerprint() }
    public func pauseCollectingFingerprint() async throws { try await inner.pauseCollectingFingerprint() }

    public func resumeCollectingFingerprint() async throws {
        guard defects.contains(.bluenetResumeRestarts) else { return try await inner.resumeCollectingFingerprint() }
        await inner.abortCollectingFingerprint()
        try await inner.startCollectingFingerprint()
    }

    public func abortCollectingFingerprint() async {
        guard defects.contains(.bluenetAbortKeepsSamples) else { return await inner.abortCollectingFingerprint() }
        try? await inner.pauseCollectingFingerprint()
    }

    public func finalizeFingerprint(groupId: String, locationId: String) async throws {
        guard !defects.contains(.bluenetFinalizeDiscards) else { return await inner.abortCollectingFingerprint() }
        try await inner.finalizeFingerprint(groupId: groupId, locationId: locationId)
        locations.fingerprinted.withLock { $0 = true }
        locations.finalized.withLock { _ = $0.insert(locationId) }
    }

    public func loadFingerprint(groupId: String, locationId: String, fingerprint: String) async throws {
        guard !defects.contains(.bluenetLoadedFingerprintIgnored) else { return }
        var fingerprint = fingerprint
        if defects.contains(.bluenetFingerprintKeepsLastSample), let samples = BluenetPublication.parse(fingerprint) as? [String: [Int]] {
            fingerprint = BluenetPublication.canonical(samples.mapValues { Array($0.suffix(1)) }) ?? fingerprint
        }
        try await inner.loadFingerprint(groupId: groupId, locationId: locationId, fingerprint: fingerprint)
        locations.fingerprinted.withLock { $0 = true }
    }

    public func getFingerprint(groupId: String, locationId: String) async -> String? {
        let fingerprint = await inner.getFingerprint(groupId: groupId, locationId: locationId)
        guard let fingerprint, locations.finalized.withLock({ $0.contains(locationId) }),
              var samples = BluenetPublication.parse(fingerprint) as? [String: [Int]] else { return fingerprint }
        if defects.contains(.bluenetFinalizeKeepsLastRound) { samples = samples.mapValues { Array($0.suffix(1)) } }
        if defects.contains(.bluenetFingerprintRSSIMagnitude) { samples = samples.mapValues { $0.map(abs) } }
        return BluenetPublication.canonical(samples) ?? fingerprint
    }
}

/// What the localization defects remember between publications, shared with the relay.
final class LocationRelay: Sendable {
    /// Whether a fingerprint was loaded or finalized.
    let fingerprinted = Mutex(false)
    /// The locations whose fingerprints were collected and finalized (not loaded).
    let finalized = Mutex<Set<String>>([])
    /// The last enterLocation's and currentLocation's data.
    private let last = Mutex<(entered: String?, current: String?)>((nil, nil))
    /// The region and the location the subject is in (entered and not yet left), as published.
    private let inside = Mutex<(region: String?, location: String?)>((nil, nil))

    /// What the subject under `defects` publishes for the inner library's `publication`.
    func relay(_ publication: BluenetPublication, by defects: Set<Defect>) -> [BluenetPublication] {
        guard publication.subscription == nil else { return [publication] }
        let (region, location) = inside.withLock { inside in
            switch publication.topic {
            case .enterRegion: inside.region = publication.object
            case .exitRegion: inside.region = nil
            case .enterLocation: inside.location = publication.object
            case .exitLocation: inside.location = nil
            default: break
            }
            return inside
        }
        switch publication.topic {
        case .iBeaconAdvertisement where defects.contains(.bluenetRangingPerBeacon):
            return (BluenetPublication.parseArray(publication.object) ?? []).compactMap(BluenetPublication.canonical).map {
                Self.event(.iBeaconAdvertisement, "[\($0)]", like: publication)
            }
        case .iBeaconAdvertisement where defects.contains(.bluenetRegionEnteredEveryRound):
            if let region { return [publication, Self.event(.enterRegion, region, like: publication)] }
        case .currentLocation where defects.contains(.bluenetLocationEnteredEveryRound):
            if let location { return [Self.event(.enterLocation, location, like: publication), publication] }
        case .iBeaconAdvertisement where defects.contains(.bluenetLocationBeforeFingerprint) && !fingerprinted.withLock({ $0 })
            && (BluenetPublication.parseArray(publication.object)?.count ?? 0) >= 3:
            return [publication, Self.event(.currentLocation, "\"unknown\"", like: publication)]
        case .enterLocation:
            last.withLock { $0.entered = publication.object }
        case .exitLocation where defects.contains(.bluenetExitLocationMissing):
            return []
        case .currentLocation where defects.contains(.bluenetCurrentLocationOnChangeOnly):
            let repeated = last.withLock { last in
                defer { last.current = publication.object }
                return last.current == publication.object
            }
            if repeated { return [] }
        case .exitRegion where defects.contains(.bluenetExitLocationOnRegionExit):
            if let entered = last.withLock({ $0.entered }) { return [Self.event(.exitLocation, entered, like: publication), publication] }
        default: break
        }
        return [publication]
    }

    private static func event(_ topic: BluenetTopic, _ object: String, like publication: BluenetPublication) -> BluenetPublication {
        BluenetPublication(at: publication.at, topic: topic, object: object, stringified: object)
    }
}
