import BlueproofAsync
import BlueproofTransmitter
import Synchronization

/// Records the events of one transmitter under test and lets a case wait for one, with a
/// deadline (no polling: a waiter is resumed by the event it waits for).
public final class TransmitterEventLog: Sendable {
    private struct Waiter {
        let matches: @Sendable (TransmitterEvent) -> Bool
        let continuation: CheckedContinuation<TransmitterEvent?, Never>
    }

    private struct State {
        var events: [TransmitterEvent] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Waiters whose deadline passed before they were registered.
        var expired: Set<Int> = []
        var ended = false
    }

    private let state = Mutex(State())

    /// Starts recording `transmitter`'s events from now on.
    public static func attach(to transmitter: any TransmitterControl) async -> TransmitterEventLog {
        let log = TransmitterEventLog()
        let stream = await transmitter.events()
        Task {
            for await event in stream { log.record(event) }
            log.end()
        }
        return log
    }

    /// Every event so far.
    public var events: [TransmitterEvent] { state.withLock { $0.events } }

    /// The first event, already recorded (from the `from`th on) or still to come, that
    /// `matches`; nil when none comes within `timeout` or the transmitter's events end first.
    public func first(within timeout: Duration, from start: Int = 0,
                      where matches: @escaping @Sendable (TransmitterEvent) -> Bool) async -> TransmitterEvent? {
        let key = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.expire(key)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let immediate: TransmitterEvent?? = state.withLock { state in
                if let found = state.events.dropFirst(start).first(where: matches) { return .some(found) }
                if state.ended || state.expired.remove(key) != nil { return .some(nil) }
                state.waiters[key] = Waiter(matches: matches, continuation: continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Whether an event matching `matches` was recorded.
    public func contains(where matches: (TransmitterEvent) -> Bool) -> Bool { events.contains(where: matches) }

    /// The packets received so far.
    public var received: [ReceivedPacket] {
        events.compactMap { if case .received(let packet) = $0 { packet } else { nil } }
    }

    /// Waits for packet `id` to be received.
    public func received(_ id: PacketID, within timeout: Duration) async -> ReceivedPacket? {
        let event = await first(within: timeout) { if case .received(let packet) = $0 { packet.packetID == id } else { false } }
        if case .received(let packet)? = event { return packet }
        return nil
    }

    private func record(_ event: TransmitterEvent) {
        let ready = state.withLock { state -> [CheckedContinuation<TransmitterEvent?, Never>] in
            state.events.append(event)
            let keys = state.waiters.filter { $0.value.matches(event) }.map(\.key)
            return keys.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ready { continuation.resume(returning: event) }
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

    private func end() {
        let waiting = state.withLock { state -> [Waiter] in
            state.ended = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.continuation.resume(returning: nil) }
    }
}
