import BlueproofAsync
import BlueproofTransmitter
import Synchronization

/// Every event a link reported, and waiting for one that matches.
final class LinkEventLog: Sendable {
    private struct State {
        var events: [LinkEvent] = []
        var waiters: [(match: @Sendable (LinkEvent) -> Bool, found: OneShot<LinkEvent>)] = []
    }

    private let state = Mutex(State())
    private let finished = OneShot<Bool>()

    init(_ stream: AsyncStream<LinkEvent>) {
        Task { [self] in
            for await event in stream { record(event) }
            finished.resolve(true)
        }
    }

    private func record(_ event: LinkEvent) {
        let ready = state.withLock { state -> [OneShot<LinkEvent>] in
            state.events.append(event)
            let (hit, rest) = (state.waiters.filter { $0.match(event) }, state.waiters.filter { !$0.match(event) })
            state.waiters = rest
            return hit.map(\.found)
        }
        for found in ready { found.resolve(event) }
    }

    var events: [LinkEvent] { state.withLock { $0.events } }

    /// The first event (already seen or to come) that matches, or nil after `limit`.
    func first(within limit: Duration = .seconds(10), _ match: @escaping @Sendable (LinkEvent) -> Bool) async -> LinkEvent? {
        let found = OneShot<LinkEvent>()
        let seen = state.withLock { state -> LinkEvent? in
            if let event = state.events.first(where: match) { return event }
            state.waiters.append((match, found))
            return nil
        }
        if let seen { return seen }
        return try? await withTimeout(limit, what: "a link event") { await found.wait() } ?? nil
    }

    /// Waits for `event` itself.
    func wait(for event: LinkEvent, within limit: Duration = .seconds(10)) async -> Bool {
        await first(within: limit) { $0 == event } != nil
    }

    /// Waits until the stream finished.
    func waitForEnd(within limit: Duration = .seconds(10)) async -> Bool {
        (try? await withTimeout(limit, what: "the end of the events") { await self.finished.wait() }) != nil
    }
}
