/// Replay protection that survives restarts (issue 15; docs/security.md, "Replay"): the ids of
/// delivered packets, each until its packet expires, in the session's `replay-state` file.
extension Transmitter {
    /// The guard the session holds; empty when none is saved, when the file is damaged (logged),
    /// or under ``TransmitterDefects/replayStateNotPersisted``.
    func loadReplayGuard() -> ReplayGuard {
        let empty = ReplayGuard(capacity: configuration.duplicateCacheCapacity)
        guard !defects.contains(.replayStateNotPersisted),
              let bytes = try? session.readFile(named: ReplayGuard.fileName) else { return empty }
        do throws(FrameError) {
            return try ReplayGuard.decode(bytes, capacity: empty.capacity)
        } catch {
            TransmitterLog.log(.error, "replay state unreadable, starting empty: \(error)", user: identity?.userID)
            return empty
        }
    }

    /// Whether `frame`, about to be delivered here, was never delivered before. A new id is
    /// written to the session before the delivery is reported, so a crash between the two loses
    /// the delivery rather than allowing it twice. Off under ``TransmitterDefects/replayGuardOff``
    /// and ``TransmitterDefects/noDuplicateCache`` (that variant keeps no record of packets at all).
    func admitForDelivery(_ frame: DataFrame) -> Bool {
        guard defects.isDisjoint(with: [.noDuplicateCache, .replayGuardOff]) else { return true }
        var state = replayGuard ?? loadReplayGuard()
        guard state.admit(frame.packetID, expiry: frame.expiry, now: DataFrame.milliseconds(now)) else {
            TransmitterLog.log(.debug, "packet \(frame.packetID) delivered before: dropped as a replay", user: identity?.userID)
            return false
        }
        replayGuard = state
        do throws(TransmitterError) {
            try session.writeFile(named: ReplayGuard.fileName, contents: state.encoded())
        } catch {
            TransmitterLog.log(.error, "replay state not saved: \(error.name)", user: identity?.userID)
        }
        return true
    }
}
