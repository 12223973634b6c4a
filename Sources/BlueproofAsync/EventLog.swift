import Synchronization

/// Every event a stream has produced, kept in order, and waiting for one: a waiter is resumed
/// by the event it waits for, by its deadline, or by the end of the stream (no polling).
/// Used for a transmitter's events, a link's, and a process's output lines.
public final class EventLog<Event: Sendable>: Sendable {
    private struct Waiter {
        let matches: @Sendable (Event) -> Bool
        let continuation: CheckedContinuation<Event?, Never>
    }

    private struct State {
        var events: [Event] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Waiters whose deadline passed before they were registered.
        var expired: Set<Int> = []
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
        let key = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.expire(key)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Event?? = state.withLock { state in
                    if let found = state.events.dropFirst(start).first(where: matches) { return .some(found) }
                    if state.ended || state.expired.remove(key) != nil { return .some(nil) }
                    state.waiters[key] = Waiter(matches: matches, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            expire(key)
        }
    }

    /// Waits until the stream has ended; whether it did within `limit`.
    public func waitForEnd(within limit: Duration = .seconds(15)) async -> Bool {
        _ = await first(within: limit) { _ in false }
        return ended
    }

    /// Appends `event` and resumes the waiters it matches.
    public func record(_ event: Event) {
        let ready = state.withLock { state -> [CheckedContinuation<Event?, Never>] in
            state.events.append(event)
            let keys = state.waiters.filter { $0.value.matches(event) }.map(\.key)
            return keys.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ready { continuation.resume(returning: event) }
    }

    /// No more events will come: every waiter gets nil.
    public func end() {
        let waiting = state.withLock { state -> [Waiter] in
            state.ended = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.continuation.resume(returning: nil) }
    }

    private func expire(_ key: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: key) else {
                state.expired.insert(key)
                return nil
            }
            return waiter
        }
        waiter?.continuation.resume(returning: nil)
    }
}

extension EventLog where Event: Equatable {
    /// Waits for `event` itself; whether it came within `limit`.
    public func wait(for event: Event, within limit: Duration = .seconds(15)) async -> Bool {
        await first(within: limit) { $0 == event } != nil
    }
}
