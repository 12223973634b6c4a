import Synchronization

/// Every event a stream has produced, kept in order, and waiting for one: a waiter is resumed
/// by the event it waits for, by its deadline, or by the end of the stream (no polling).
/// Used for a transmitter's events, a link's, and a process's output lines.
public final class EventLog<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var waiters = Waiters<Event>()
        var ended = false
    }

    private let state = Mutex(State())

    /// An empty log, fed by ``record(_:)`` and closed by ``end()``.
    public init() {}

    /// A log of `stream`'s events from now on; it ends when the stream does.
    public convenience init(_ stream: AsyncStream<Event>) {
        self.init()
        Task { [self] in
            for await event in stream { record(event) }
            end()
        }
    }

    /// Every event so far.
    public var events: [Event] { state.withLock { $0.events } }

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
            state.withLock { state -> Event?? in
                if let found = state.events.dropFirst(start).first(where: matches) { return .some(found) }
                if state.ended || !state.waiters.add(key, matches: matches, continuation) { return .some(nil) }
                return nil
            }
        }
    }

    /// Waits until the stream has ended; whether it did within `limit`.
    public func waitForEnd(within limit: Duration = .seconds(15)) async -> Bool {
        _ = await first(within: limit) { _ in false }
        return ended
    }

    /// Appends `event` and resumes the waiters it matches.
    public func record(_ event: Event) {
        let ready = state.withLock { state in
            state.events.append(event)
            return state.waiters.matching(event)
        }
        for continuation in ready { continuation.resume(returning: event) }
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

extension EventLog where Event: Equatable {
    /// Waits for `event` itself; whether it came within `limit`.
    public func wait(for event: Event, within limit: Duration = .seconds(15)) async -> Bool {
        await first(within: limit) { $0 == event } != nil
    }
}
