/// A clock whose time never moves: every sleep on it lasts until its task is cancelled.
///
/// Given to a component whose timeouts must not fire during a test, so that only the event
/// under test can end a wait (a timeout that fired would hide whether the event did).
struct FrozenClock: Clock {
    typealias Duration = Swift.Duration
    typealias Instant = ContinuousClock.Instant

    let now: Instant = ContinuousClock.now
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let (never, continuation) = AsyncStream.makeStream(of: Never.self)
        // Iteration ends only when this task is cancelled: nothing yields, and the
        // continuation, used after the loop, stays alive until then.
        for await _ in never {}
        continuation.finish()
        throw CancellationError()
    }
}
