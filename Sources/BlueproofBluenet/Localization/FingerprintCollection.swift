/// Collecting one fingerprint (bluenet-lib-ios README, "Methods": start, pause, resume, abort,
/// finalize). While running, every ranging round adds each ranged beacon's RSSI; paused, rounds
/// add nothing; abort drops what was collected.
public struct FingerprintCollection: Hashable, Sendable {
    public enum State: Hashable, Sendable { case idle, collecting, paused }

    public private(set) var state: State = .idle
    private var samples: [String: [Int]] = [:]

    public init() {}

    /// Starts a new collection; refused while one is running or paused.
    public mutating func start() throws(BluenetError) {
        guard state == .idle else { throw .collection("already collecting; abort or finalize first") }
        samples = [:]
        state = .collecting
    }

    public mutating func pause() throws(BluenetError) {
        guard state == .collecting else { throw .collection("pause needs a running collection") }
        state = .paused
    }

    public mutating func resume() throws(BluenetError) {
        guard state == .paused else { throw .collection("resume needs a paused collection") }
        state = .collecting
    }

    /// Drops the collection; nothing of it can be finalized or fetched.
    public mutating func abort() {
        state = .idle
        samples = [:]
    }

    /// Ends the collection and returns its fingerprint; refused when none is running or paused,
    /// or when it holds no samples (the collection then stays as it was).
    public mutating func finalize() throws(BluenetError) -> Fingerprint {
        guard state != .idle else { throw .collection("finalize needs a collection") }
        let fingerprint = try Fingerprint(samples: samples)
        abort()
        return fingerprint
    }

    /// Adds one ranging round's RSSI values when collecting. A beacon beyond
    /// ``BluenetLimits/fingerprintBeaconsMaximum`` or past ``BluenetLimits/fingerprintSamplesMaximum``
    /// samples is not added.
    mutating func add(_ packets: [IBeaconPacket]) {
        guard state == .collecting else { return }
        for packet in packets where BluenetLimits.rssiRange.contains(packet.rssi) {
            guard samples[packet.idString] != nil || samples.count < BluenetLimits.fingerprintBeaconsMaximum,
                  samples[packet.idString, default: []].count < BluenetLimits.fingerprintSamplesMaximum else { continue }
            samples[packet.idString, default: []].append(packet.rssi)
        }
    }
}
