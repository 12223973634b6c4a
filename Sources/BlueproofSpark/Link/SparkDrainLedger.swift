import BlueproofAsync

/// What ``SparkChannelNode/drain(_:)`` waits on, per peer: the frames taken from the core and
/// not yet accepted by the host, and the drains waiting for them to be none. Only the CLI's
/// `spark send` and the testers drain; a subject's node keeps the counts and never reads them.
struct SparkDrainLedger {
    private var inFlight: [UInt64: Int] = [:]
    private var waiters: [UInt64: [OneShot<Bool>]] = [:]

    /// A frame for `peer` was taken from the core.
    mutating func taken(by peer: UInt64) { inFlight[peer, default: 0] += 1 }

    /// The host accepted a frame for `peer`.
    mutating func sent(to peer: UInt64) { inFlight[peer, default: 1] -= 1 }

    /// Frames for `peer` are taken and not yet accepted.
    func busy(_ peer: UInt64) -> Bool { inFlight[peer, default: 0] > 0 }

    /// A waiter resolved true once `peer` is idle, false when its link is lost.
    mutating func waiter(for peer: UInt64) -> OneShot<Bool> {
        let waiter = OneShot<Bool>()
        waiters[peer, default: []].append(waiter)
        return waiter
    }

    /// `peer`'s link is gone: its drains fail.
    mutating func lost(_ peer: UInt64) {
        inFlight[peer] = nil
        for waiter in waiters.removeValue(forKey: peer) ?? [] { _ = waiter.resolve(false) }
    }

    /// Resolves the drains of peers with nothing in flight and nothing in `pending`.
    mutating func settle(pending: [UInt64]) {
        for peer in Array(waiters.keys) where !pending.contains(peer) && !busy(peer) {
            for waiter in waiters.removeValue(forKey: peer) ?? [] { _ = waiter.resolve(true) }
        }
    }
}
