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
        await inner.getFingerprint(groupId: groupId, locationId: locationId)
    }
}

/// What the localization defects remember between publications, shared with the relay.
final class LocationRelay: Sendable {
    /// Whether a fingerprint was loaded or finalized.
    let fingerprinted = Mutex(false)
    /// The last enterLocation's and currentLocation's data.
    private let last = Mutex<(entered: String?, current: String?)>((nil, nil))

    /// What the subject under `defects` publishes for the inner library's `publication`.
    func relay(_ publication: BluenetPublication, by defects: Set<Defect>) -> [BluenetPublication] {
        guard publication.subscription == nil else { return [publication] }
        switch publication.topic {
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
