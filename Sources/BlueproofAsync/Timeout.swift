/// Thrown by ``withTimeout(_:clock:what:_:)`` when the operation did not finish in time.
public struct TimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being waited for, e.g. `"Command Complete for Reset"`.
    public var what: String
    public var limit: String

    public init(what: String, limit: String) {
        self.what = what
        self.limit = limit
    }

    public var description: String { "timed out after \(limit) waiting for \(what)" }
}

/// Runs `operation`, cancelling it and throwing ``TimeoutError`` if `clock` reaches the
/// deadline first. The operation must respond to cancellation.
public func withTimeout<T: Sendable, C: Clock>(
    _ duration: C.Duration,
    clock: C,
    what: String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(for: duration)
            throw TimeoutError(what: what, limit: "\(duration)")
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else {
            throw CancellationError()
        }
        return first
    }
}

/// ``withTimeout(_:clock:what:_:)`` on the continuous clock.
public func withTimeout<T: Sendable>(
    _ duration: Duration,
    what: String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withTimeout(duration, clock: ContinuousClock(), what: what, operation)
}
