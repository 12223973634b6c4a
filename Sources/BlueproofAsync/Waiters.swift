/// The waiters of one value or log, kept under its owner's lock: each waits for a value that
/// matches, and is resumed by it, by its deadline or by its task's cancellation (what
/// ``EventLog`` and ``Watched`` share).
struct Waiters<Value: Sendable>: Sendable {
    typealias Resume = CheckedContinuation<Value?, Never>

    private struct Waiter {
        let matches: @Sendable (Value) -> Bool
        let continuation: Resume
    }

    private var waiting: [Int: Waiter] = [:]
    private var lastKey = 0
    /// Waiters whose deadline or cancellation came before they were registered.
    private var expired: Set<Int> = []

    /// A key for a new waiter.
    mutating func newKey() -> Int {
        lastKey += 1
        return lastKey
    }

    /// Registers waiter `key`; false when it expired already (it is to get nil).
    mutating func add(_ key: Int, matches: @escaping @Sendable (Value) -> Bool, _ continuation: Resume) -> Bool {
        if expired.remove(key) != nil { return false }
        waiting[key] = Waiter(matches: matches, continuation: continuation)
        return true
    }

    /// Takes waiter `key` out to be resumed with nil; remembers it as expired if it is not
    /// registered yet.
    mutating func expire(_ key: Int) -> Resume? {
        if let waiter = waiting.removeValue(forKey: key) { return waiter.continuation }
        expired.insert(key)
        return nil
    }

    /// Takes out the waiters `value` matches, to be resumed with it.
    mutating func matching(_ value: Value) -> [Resume] {
        let keys = waiting.filter { $0.value.matches(value) }.map(\.key)
        return keys.compactMap { waiting.removeValue(forKey: $0)?.continuation }
    }

    /// What each waiter waits for, to be tried outside the owner's lock (a test may read the
    /// owner itself, whose lock is not reentrant).
    func predicates() -> [(key: Int, matches: @Sendable (Value) -> Bool)] {
        waiting.map { ($0.key, $0.value.matches) }
    }

    /// Takes out the waiters `keys` still registered, to be resumed.
    mutating func take(_ keys: [Int]) -> [Resume] {
        keys.compactMap { waiting.removeValue(forKey: $0)?.continuation }
    }

    /// Takes out every waiter, to be resumed with nil.
    mutating func removeAll() -> [Resume] {
        defer { waiting.removeAll() }
        return waiting.values.map(\.continuation)
    }

    /// Waits as waiter `key`: `register`, under the owner's lock, either answers at once or
    /// registers the continuation; `expire` (the owner's ``expire(_:)`` under its lock, then the
    /// resumption) runs at the deadline and on cancellation.
    static func wait(_ key: Int, within timeout: Duration, expire: @escaping @Sendable () -> Void,
                     register: (Resume) -> Value??) async -> Value? {
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            expire()
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let immediate = register(continuation) { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            expire()
        }
    }
}
