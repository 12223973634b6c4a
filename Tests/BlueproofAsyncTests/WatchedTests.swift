import BlueproofAsync
import Testing

/// `Watched`: waiting until a changing value satisfies a condition, without polling.
@Suite("Watched")
struct WatchedTests {
    @Test("a waiter gets a value that already holds at once, or the first change that makes it hold; nil at its deadline")
    func waiting() async {
        let counter = Watched(0)
        #expect(await counter.wait(within: .zero) { $0 == 0 } == 0, "already holds: no wait")
        // The condition is first asked as the waiter registers, so the changes below come after.
        let asked = Watched(false)
        let waiter = Task {
            await counter.wait(within: .seconds(30)) { value in
                asked.update { $0 = true }
                return value == 3
            }
        }
        #expect(await asked.wait(within: .seconds(30)) { $0 } == true, "the waiter registered")
        for _ in 0..<5 { counter.update { $0 += 1 } }
        #expect(await waiter.value == 3, "resumed by the change that made it hold, with that value")
        #expect(await counter.wait(within: .milliseconds(50)) { $0 > 100 } == nil, "never holds: nil at the deadline")
        #expect(counter.read { $0 } == 5)
        #expect(counter.update { value -> Int in value = 7; return value * 2 } == 14, "update returns what its body returns")
    }

    @Test("a cancelled waiter gets nil at once, not at its deadline", .timeLimit(.minutes(5)))
    func cancelled() async {
        let flag = Watched(false)
        let waiter = Task { await flag.wait(within: .seconds(600)) { $0 } }
        waiter.cancel()
        #expect(await waiter.value == nil)
    }
}
