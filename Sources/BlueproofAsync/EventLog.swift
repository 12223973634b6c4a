import Synchronization

/// Every event a stream has produced, kept in order, and waiting for one: a waiter is resumed
/// by the event it waits for, by its deadline, or by the end of the stream (no polling).
/// Used for a transmitter's events, a Spark node's, a link's, and a process's output lines.
///
/// It keeps at most `limit` events (a subject flooding events cannot grow it without bound):
/// past it an event is counted, not kept, though a waiter it matches still gets it, and
/// ``overflow`` names the limit, for a case to report instead of judging what it cannot see.
public final class EventLog<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var dropped = 0
        var waiters = Waiters<Event>()
        var ended = false
    }

    /// 100,000 events: far more than any case produces.
    public static var defaultLimit: Int { 100_000 }

    /// How many events are kept.
    public let limit: Int
    private let state = Mutex(State())

    /// An empty log, fed by ``record(_:)`` and closed by ``end()``.
    public init(limit: Int = EventLog.defaultLimit) { self.limit = max(1, limit) }

    /// A log of `stream`'s events from now on; it ends when the stream does.
    public convenience init(_ stream: AsyncStream<Event>, limit: Int = EventLog.defaultLimit) {
        self.init(limit: limit)
        Task { [self] in
            for await event in stream { record(event) }
            end()
        }
    }

    /// Every event so far.
    public var events: [Event] { state.withLock { $0.events } }

    /// Events not kept, past ``limit``.
    public var dropped: Int { state.withLock { $0.dropped } }

    /// Why the log is not the whole story, once events were dropped past ``limit``.
    public var overflow: EventLogOverflow? {
        let dropped = dropped
        return dropped == 0 ? nil : EventLogOverflow(limit: limit, dropped: dropped)
    }

    /// Whether the stream has ended.
    public var ended: Bool { state.withLock { $0.ended } }

    /// Whether an event matching `matches` was recorded.
    public func contains(where matches: (Event) -> Bool) -> Bool { events.contains(where: matches) }

    /// The first event, already recorded or still to come, that `matches`; nil when none comes
    /// within `timeout`, the stream ends first or the waiting task is cancelled (so a case that
    /// timed out ends at once, not at its own deadline). With `start`, events recorded before the
    /// `start`th are passed over (a second copy after a first, say).
    public func first(within timeout: Duration, from start: Int = 0,
                      where matches: @escaping @Sendable (Event) -> Bool) async -> Event? {
        let key = state.withLock { $0.waiters.newKey() }
        return await Waiters<Event>.wait(key, within: timeout, expire: { self.expire(key) }) { continuation in
            // `matches` runs outside the lock (it may read this log); the waiter is registered
            // only once no event came in since the last look.
            var scanned = start
            while true {
                let (batch, seen) = state.withLock { state in (Array(state.events.dropFirst(scanned)), state.events.count + state.dropped) }
                if let found = batch.first(where: matches) { return .some(found) }
                scanned = max(scanned, seen)
                let outcome = state.withLock { state -> Registration in
                    guard state.events.count + state.dropped == seen else { return .lookAgain }
                    if state.ended || !state.waiters.add(key, matches: matches, continuation) { return .over }
                    return .registered
                }
                switch outcome {
                case .lookAgain: continue
                case .over: return .some(nil)
                case .registered: return nil
                }
            }
        }
    }

    private enum Registration { case lookAgain, over, registered }

    /// Runs `each` on every event in order, those already recorded first, until the log ends or
    /// the task is cancelled: how a relay passes a log on as it grows (events past ``limit``
    /// included, as a waiter gets them).
    public func follow(_ each: (Event) async -> Void) async {
        var index = 0
        while !Task.isCancelled {
            if let next = await first(within: .seconds(3600), from: index, where: { _ in true }) {
                index += 1
                await each(next)
            } else if ended {
                return
            }
        }
    }

    /// Waits until the stream has ended; whether it did within `limit`.
    public func waitForEnd(within limit: Duration = .seconds(15)) async -> Bool {
        _ = await first(within: limit) { _ in false }
        return ended
    }

    /// Appends `event` (counts it, past ``limit``) and resumes the waiters it matches.
    public func record(_ event: Event) {
        let ready = state.withLock { state in
            if state.events.count < limit { state.events.append(event) } else { state.dropped += 1 }
            return state.waiters.predicates()
        }
        // Tried outside the lock: a test may read this log.
        let keys = ready.filter { $0.matches(event) }.map(\.key)
        guard !keys.isEmpty else { return }
        for continuation in state.withLock({ $0.waiters.take(keys) }) { continuation.resume(returning: event) }
    }

    /// No more events will come: every waiter gets nil.
    public func end() {
        let waiting = state.withLock { state in
            state.ended = true
            return state.waiters.removeAll()
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    private func expire(_ key: Int) {
        state.withLock { $0.waiters.expire(key) }?.resume(returning: nil)
    }
}

/// An ``EventLog`` reached its limit: `dropped` events after the first `limit` were not kept.
public struct EventLogOverflow: Error, Hashable, Sendable, CustomStringConvertible {
    public var limit: Int
    public var dropped: Int

    public init(limit: Int, dropped: Int) {
        self.limit = limit
        self.dropped = dropped
    }

    public var description: String {
        "the event log holds at most \(limit) events: \(dropped) more were not kept, so what came after them cannot be judged"
    }
}

extension EventLog where Event: Equatable {
    /// Waits for `event` itself; whether it came within `limit`.
    public func wait(for event: Event, within limit: Duration = .seconds(15)) async -> Bool {
        await first(within: limit) { $0 == event } != nil
    }
}
