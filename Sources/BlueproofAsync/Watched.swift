import Synchronization

/// A value that changes, and waiting until it satisfies a condition: a waiter is resumed by the
/// change that makes its condition hold, or by its deadline (no polling). Only the value and the
/// waiters are kept, so a value changed millions of times costs no more than one changed once.
public final class Watched<Value: Sendable>: Sendable {
    private struct Waiter {
        let holds: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Value?, Never>
    }

    private struct State {
        var value: Value
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Waiters whose deadline passed before they were registered.
        var expired: Set<Int> = []
    }

    private let state: Mutex<State>

    public init(_ value: Value) { state = Mutex(State(value: value)) }

    /// Reads the value.
    public func read<Result>(_ body: (Value) -> Result) -> Result { state.withLock { body($0.value) } }

    /// Changes the value and resumes the waiters whose condition now holds.
    @discardableResult
    public func update<Result>(_ body: (inout Value) -> Result) -> Result {
        let (result, ready) = state.withLock { state -> (Result, [(CheckedContinuation<Value?, Never>, Value)]) in
            let result = body(&state.value)
            let value = state.value
            let keys = state.waiters.filter { $0.value.holds(value) }.map(\.key)
            return (result, keys.compactMap { key in state.waiters.removeValue(forKey: key).map { ($0.continuation, value) } })
        }
        for (continuation, value) in ready { continuation.resume(returning: value) }
        return result
    }

    /// The value once `holds` is true of it (now or after a change); nil when it is not within
    /// `timeout`, or when the waiting task is cancelled.
    public func wait(within timeout: Duration, until holds: @escaping @Sendable (Value) -> Bool) async -> Value? {
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
                let immediate: Value?? = state.withLock { state in
                    if holds(state.value) { return .some(state.value) }
                    if state.expired.remove(key) != nil { return .some(nil) }
                    state.waiters[key] = Waiter(holds: holds, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            expire(key)
        }
    }

    private func expire(_ key: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            if let waiter = state.waiters.removeValue(forKey: key) { return waiter.continuation }
            state.expired.insert(key)
            return nil
        }
        continuation?.resume(returning: nil)
    }
}
