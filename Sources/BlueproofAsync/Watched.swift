import Synchronization

/// A value that changes, and waiting until it satisfies a condition: a waiter is resumed by the
/// change that makes its condition hold, by its deadline or by its task's cancellation (no
/// polling). Only the value and the waiters are kept, so a value changed millions of times
/// costs no more than one changed once.
public final class Watched<Value: Sendable>: Sendable {
    private struct State {
        var value: Value
        var waiters = Waiters<Value>()
    }

    private let state: Mutex<State>

    public init(_ value: Value) { state = Mutex(State(value: value)) }

    /// Reads the value.
    public func read<Result>(_ body: (Value) -> Result) -> Result { state.withLock { body($0.value) } }

    /// Changes the value and resumes the waiters whose condition now holds.
    @discardableResult
    public func update<Result>(_ body: (inout Value) -> Result) -> Result {
        let (result, value, ready) = state.withLock { state in
            let result = body(&state.value)
            return (result, state.value, state.waiters.matching(state.value))
        }
        for continuation in ready { continuation.resume(returning: value) }
        return result
    }

    /// The value once `holds` is true of it (now or after a change); nil when it is not within
    /// `timeout`, or when the waiting task is cancelled.
    public func wait(within timeout: Duration, until holds: @escaping @Sendable (Value) -> Bool) async -> Value? {
        let key = state.withLock { $0.waiters.newKey() }
        return await Waiters<Value>.wait(key, within: timeout, expire: { self.expire(key) }) { continuation in
            state.withLock { state -> Value?? in
                if holds(state.value) { return .some(state.value) }
                return state.waiters.add(key, matches: holds, continuation) ? nil : .some(nil)
            }
        }
    }

    private func expire(_ key: Int) {
        state.withLock { $0.waiters.expire(key) }?.resume(returning: nil)
    }
}
