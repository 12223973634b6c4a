/// Turns per key for an actor's reentrant async methods: one holder at a time, the others
/// wait in order and are handed the turn directly (no re-check loop). Not thread-safe on its
/// own: kept inside an actor.
struct AsyncTurns<Key: Hashable & Sendable>: Sendable {
    private var busy: Set<Key> = []
    private var waiting: [Key: [CheckedContinuation<Void, Never>]] = [:]

    /// Takes the turn now (true), or queues `continuation` to be resumed with it (false).
    mutating func take(_ key: Key) -> Bool {
        busy.insert(key).inserted
    }

    mutating func enqueue(_ key: Key, _ continuation: CheckedContinuation<Void, Never>) {
        waiting[key, default: []].append(continuation)
    }

    /// Hands the turn to the next waiter, or frees it.
    mutating func give(_ key: Key) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            busy.remove(key)
        }
    }
}
