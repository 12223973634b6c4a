import BlueproofAsync
import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofWire
import Foundation
import Synchronization

/// The reference Bluenet library with deliberate faults at its API boundary (the `bluenet…`
/// ``Defect``s), for showing that each BLN case fails on the behaviour it checks.
public final class DefectiveBluenet: BluenetControl {
    public let inner: any BluenetControl
    public let defects: Set<Defect>
    public let publications = BluenetPublicationLog(limit: BluenetPublication.maximumPerLibrary)
    private let relay: Task<Void, Never>
    /// Tracks every beacon heard (``Defect/bluenetRangesUntracked``), or every one heard once
    /// any UUID is tracked (``Defect/bluenetTrackingRangesEvery``).
    private let untracked: Task<Void, Never>?
    /// Whether a connect fulfilled since the last disconnect (for bluenetDisconnectNeedsConnection).
    private let connected = Mutex(false)
    /// Connects not yet settled (for bluenetConnectLeavesPending).
    private let pending = Mutex(0)
    /// The UUID last tracked (for bluenetRegionNamedByUUID).
    private let trackedUUID = TrackedUUID()
    /// The localization defects' memory (``LocationRelay``).
    let locations = LocationRelay()

    /// The Bluenet defects among `defects`.
    public static func relevant(_ defects: Set<Defect>) -> Set<Defect> { defects.filter { $0.rawValue.hasPrefix("bluenet") } }

    /// The connection configuration of the reference under `defects` (its connect timeout).
    public static func connection(_ defects: Set<Defect>) -> BluenetConnection.Configuration {
        var configuration = BluenetConnection.Configuration()
        if defects.contains(.bluenetConnectTimeoutShort) { configuration.connectTimeout = .seconds(1) }
        if defects.contains(.bluenetConnectTimeoutLong) { configuration.connectTimeout = .seconds(6) }
        if defects.contains(.bluenetDisconnectTimeoutLong) { configuration.disconnectTimeout = .seconds(4) }
        configuration.connectTimeoutFromCall = defects.contains(.bluenetConnectTimeoutFromCall)
        return configuration
    }

    /// Makes another library on the same node (``Defect/bluenetConnectKeepsCurrent`` and
    /// ``Defect/bluenetConnectLeavesPending`` connect through it, leaving the first's link or
    /// pending connect alone).
    private let another: @Sendable () async -> any BluenetControl
    private let others = Mutex<[any BluenetControl]>([])

    /// `beacons` are those the inner library read (``beaconReading(_:)``).
    public init(wrapping inner: any BluenetControl, defects: Set<Defect>, beacons: AsyncStream<IBeacon>,
                another: @escaping @Sendable () async -> any BluenetControl) {
        self.inner = inner
        self.defects = defects
        self.another = another
        untracked = defects.contains(.bluenetRangesUntracked) ? Self.rangeEvery(beacons, on: inner)
            : defects.contains(.bluenetTrackingRangesEvery) ? Self.rangeEvery(beacons, on: inner, once: trackedUUID) : nil
        let source = inner.publications
        let log = publications
        let tracked = trackedUUID
        let locations = locations
        relay = Task {
            var rounds = 0
            var reports: [String: Int] = [:]
            // Follows the inner log as it grows, changing each publication as the defects say.
            await source.follow { next in
                if next.topic == .iBeaconAdvertisement, defects.contains(.bluenetRangingEveryOtherRound) {
                    rounds += 1
                    if rounds.isMultiple(of: 2) { return }
                }
                if next.topic == .exitRegion, defects.contains(.bluenetRegionNeverLeft) { return }
                var altered = Self.altered(next, by: defects)
                if next.topic == .advertisementData, defects.contains(.bluenetScanResponseNotMerged), let handle = next.handle {
                    reports[handle, default: 0] += 1
                    if reports[handle, default: 0].isMultiple(of: 2) { altered = Self.unmerged(altered) }
                }
                if next.topic == .enterRegion, defects.contains(.bluenetRegionNamedByUUID), let uuid = tracked.value.withLock({ $0 }) {
                    altered.object = "\"\(uuid)\""
                    altered.stringified = altered.object
                }
                for relayed in locations.relay(altered, by: defects) { log.record(relayed) }
            }
            log.end()
        }
    }

    public func isReady() async {
        guard defects.contains(.bluenetNeverReady) else { return await inner.isReady() }
        await Self.untilCancelled()
    }

    public func startScanning(_ filter: BluenetScanFilter) async throws {
        var filter = filter
        switch filter {
        case .all where defects.contains(.bluenetScanAllCrownstonesOnly): filter = .crownstones
        case .crownstones where defects.contains(.bluenetCrownstoneFilterIgnored): filter = .all
        case .service where defects.contains(.bluenetServiceFilterIgnored): filter = .all
        default: break
        }
        try await inner.startScanning(filter)
    }

    public func stopScanning() async {
        if defects.contains(.bluenetPublishesAfterStop) { return }
        await inner.stopScanning()
    }

    public func on(_ topic: BluenetTopic) async -> Int { await inner.on(topic) }

    public func off(_ id: Int) async -> Bool {
        // Reports the subscription ended and leaves it delivering.
        if defects.contains(.bluenetOffIgnored) { return true }
        return await inner.off(id)
    }

    public func trackUUID(_ uuid: String, groupId: String) async throws {
        trackedUUID.value.withLock { $0 = uuid }
        try await inner.trackUUID(uuid, groupId: groupId)
    }

    public func connect(_ handle: String) async -> BluenetOutcome {
        if defects.contains(.bluenetConnectKeepsCurrent) && connected.withLock({ $0 })
            || defects.contains(.bluenetConnectLeavesPending) && pending.withLock({ $0 }) > 0 {
            let other = await another()
            others.withLock { $0.append(other) }
            return await other.connect(handle)
        }
        if defects.contains(.bluenetSwitchGivesUpAtOnce) && connected.withLock({ $0 }) {
            return .rejected(.connection(.failed("defect: connected to another device")))
        }
        pending.withLock { $0 += 1 }
        let outcome = await inner.connect(handle)
        pending.withLock { $0 -= 1 }
        if outcome == .fulfilled { connected.withLock { $0 = true } }
        if defects.contains(.bluenetConnectNeverGivesUp), case .rejected = outcome {
            await Self.untilCancelled()
        } else if defects.contains(.bluenetSwitchNeverGivesUp), case .rejected(.connection(.disconnectTimeout)) = outcome {
            await Self.untilCancelled()
        }
        return outcome
    }

    public func disconnect() async -> BluenetOutcome {
        let outcome = await inner.disconnect()
        let wasConnected = connected.withLock { was in
            defer { if outcome == .fulfilled { was = false } }
            return was
        }
        if defects.contains(.bluenetDisconnectNeedsConnection), outcome == .fulfilled, !wasConnected {
            return .rejected(.connection(.notConnected))
        }
        if defects.contains(.bluenetDisconnectNeverGivesUp), case .rejected(.connection(.disconnectTimeout)) = outcome {
            await Self.untilCancelled()
        }
        return outcome
    }

    public func setSwitchState(_ state: Double) async -> BluenetOutcome {
        var state = state
        if defects.contains(.bluenetSwitchInverted), state == 0 || state == 1 { state = 1 - state }
        if defects.contains(.bluenetDimmingAccepted), state > 0, state < 1 { state = state.rounded() }
        return await inner.setSwitchState(state)
    }

    public func stop() async {
        for other in others.withLock({ $0 }) { await other.stop() }
        await inner.stop()
        relay.cancel()
        untracked?.cancel()
        publications.end()
    }

    /// A promise that never settles: returns only once the caller gives up (cancels).
    private static func untilCancelled() async {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }

    // MARK: Publications

    static func altered(_ publication: BluenetPublication, by defects: Set<Defect>) -> BluenetPublication {
        var publication = publication
        if defects.contains(.bluenetServiceDataSigned) {
            publication.object = rewrite(publication.object) { object in
                guard let bytes = object["serviceData"] as? [Int] else { return }
                object["serviceData"] = bytes.map { $0 > 127 ? $0 - 256 : $0 }
            }
            publication.stringified = publication.object
        }
        if defects.contains(.bluenetCrownstoneIdBigEndian) {
            publication.object = rewrite(publication.object) { object in
                guard var data = object["serviceData"] as? [String: Any], let uuid = data.keys.first,
                      var fields = data[uuid] as? [String: Any], let id = (fields["crownstoneId"] as? String).flatMap(UInt16.init) else { return }
                fields["crownstoneId"] = String(id.byteSwapped)
                data[uuid] = fields
                object["serviceData"] = data
            }
            publication.stringified = publication.object
        }
        if publication.topic == .iBeaconAdvertisement {
            publication.object = misread(publication.object, by: defects)
            publication.stringified = publication.object
        }
        if defects.contains(.bluenetIdStringMisjoined), publication.topic == .iBeaconAdvertisement {
            publication.object = publication.object.replacingOccurrences(of: ".Maj:", with: ":Maj.")
            publication.stringified = publication.object
        }
        if defects.contains(.bluenetRSSIAsText), publication.topic == .advertisementData {
            publication.object = rewrite(publication.object) { object in
                if let rssi = object["rssi"] { object["rssi"] = "\(rssi)" }
            }
            publication.stringified = publication.object
        }
        if defects.contains(.bluenetStringifyDropsRSSI) {
            publication.stringified = rewrite(publication.stringified) { $0["rssi"] = nil }
        }
        return publication
    }

    /// `publication` as an advertising report alone would give it: no scan response service data.
    static func unmerged(_ publication: BluenetPublication) -> BluenetPublication {
        var publication = publication
        publication.object = rewrite(publication.object) { $0["serviceData"] = nil }
        publication.stringified = rewrite(publication.stringified) { $0["serviceData"] = nil }
        return publication
    }

    /// `text` (a JSON object) changed by `change`, keys sorted; unchanged when it is no object.
    static func rewrite(_ text: String, _ change: (inout [String: Any]) -> Void) -> String {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { return text }
        change(&object)
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return text }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The UUID a broken variant last tracked, shared with its relay of publications.
final class TrackedUUID: Sendable {
    let value = Mutex<String?>(nil)
}
