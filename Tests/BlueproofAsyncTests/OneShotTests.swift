import BlueproofAsync
import Testing

@Suite struct OneShotTests {
    @Test func waitersReceiveTheValueSetOnce() async {
        let shot = OneShot<Int>()
        async let first = shot.wait()
        async let second = shot.wait()
        #expect(shot.resolve(7))
        #expect(!shot.resolve(8))
        #expect(await first == 7)
        #expect(await second == 7)
        #expect(await shot.wait() == 7)
        #expect(shot.current == 7)
    }

    @Test func cancelledWaitReturnsNil() async {
        let shot = OneShot<Int>()
        let waiter = Task { await shot.wait() }
        waiter.cancel()
        #expect(await waiter.value == nil)
        shot.resolve(1)
        #expect(await shot.wait() == 1)
    }

    @Test func timeoutFiresWhenTheValueNeverComes() async throws {
        let shot = OneShot<Int>()
        await #expect(throws: TimeoutError.self) {
            try await withTimeout(.milliseconds(20), what: "a value") { await shot.wait() }
        }
    }

    @Test func timeoutReturnsTheValueWhenItComesInTime() async throws {
        let shot = OneShot<Int>()
        shot.resolve(3)
        let value = try await withTimeout(.seconds(5), what: "a value") { await shot.wait() }
        #expect(value == 3)
    }
}
