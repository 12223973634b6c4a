/// Time on a clock counted from a fixed start, so state machines can hold plain durations as
/// instants and timers can wake at one of them, whatever the clock's own instant type.
public struct Timeline: Sendable {
    /// Time since the start.
    public let elapsed: @Sendable () -> Duration
    /// Sleeps until `elapsed()` reaches the given offset.
    public let sleep: @Sendable (_ until: Duration) async throws -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleep = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}
