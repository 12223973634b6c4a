/// Sleeps `duration` on an existential clock.
func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
    try await clock.sleep(for: duration)
}
