/// The world's clock, as time since the world started: what the core runs on.
struct RadioTimeline: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self = Self.make(clock)
    }

    private init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    private static func make<C: Clock<Duration>>(_ clock: C) -> RadioTimeline {
        let start = clock.now
        return RadioTimeline(now: { start.duration(to: clock.now) },
                             sleep: { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) })
    }
}
