import Synchronization

/// A value that is set once and awaited by any number of tasks: a process exit, a readiness
/// line, a command's completion. Waiting is cancellable; a cancelled wait returns nil.
public final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Sets the value and wakes every waiter; later calls are ignored. Returns whether this
    /// call set it.
    @discardableResult
    public func resolve(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value?, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The value if it is already set.
    public var current: Value? { state.withLock { $0.value } }

    /// Waits for the value; nil when the waiting task is cancelled first.
    public func wait() async -> Value? {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let immediate: Value?? = state.withLock { state in
                    if let value = state.value { return .some(value) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
