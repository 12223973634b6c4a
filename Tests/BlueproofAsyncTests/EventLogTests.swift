import BlueproofAsync
import Testing

@Suite("EventLog")
struct EventLogTests {
    @Test("a waiter gets an event already recorded, or the first matching one to come")
    func waiting() async {
        let log = EventLog<Int>()
        log.record(1)
        #expect(await log.first(within: .seconds(5)) { $0 == 1 } == 1)
        async let later = log.first(within: .seconds(5)) { $0 > 2 }
        log.record(2)
        log.record(3)
        #expect(await later == 3)
        #expect(log.events == [1, 2, 3])
    }

    @Test("a test may read the log itself, on events already recorded and on events to come (its lock is not held while tests run)", .timeLimit(.minutes(5)))
    func testReadsTheLog() async {
        let log = EventLog<Int>()
        log.record(1)
        #expect(await log.first(within: .seconds(5)) { _ in log.events.count >= 1 } == 1)
        async let later = log.first(within: .seconds(5)) { event in event >= 2 && log.events.contains(event) }
        log.record(2)
        log.record(3)
        #expect(await later == 2)
    }

    @Test("from: passes over the events recorded before it")
    func from() async {
        let log = EventLog<Int>()
        log.record(7)
        async let second = log.first(within: .seconds(5), from: 1) { $0 == 7 }
        log.record(7)
        #expect(await second == 7)
        #expect(log.events.count == 2)
    }

    @Test("a cancelled waiter gets nil at once, not at its deadline (a case that timed out ends)", .timeLimit(.minutes(5)))
    func cancelled() async {
        let log = EventLog<Int>()
        let waiter = Task { await log.first(within: .seconds(600)) { $0 == 1 } }
        waiter.cancel()
        #expect(await waiter.value == nil)
        log.record(1)
        #expect(await log.first(within: .seconds(5)) { $0 == 1 } == 1, "the log still serves other waiters")
    }

    @Test("a deadline or the end of the stream gives nil; wait(for:) and waitForEnd say which")
    func deadlineAndEnd() async {
        let log = EventLog<Int>()
        #expect(await log.first(within: .milliseconds(20)) { $0 == 9 } == nil)
        #expect(await !log.wait(for: 9, within: .milliseconds(20)))
        #expect(await !log.waitForEnd(within: .milliseconds(20)))
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let fed = EventLog(stream)
        continuation.yield(4)
        #expect(await fed.wait(for: 4, within: .seconds(5)))
        continuation.finish()
        #expect(await fed.waitForEnd(within: .seconds(5)))
        #expect(await fed.first(within: .seconds(5)) { $0 == 5 } == nil, "nothing comes after the end")
    }
}

@Suite("EventLog: bound")
struct EventLogBoundTests {
    @Test("past its limit the log keeps the oldest, counts the rest and names the limit")
    func bounded() async {
        let log = EventLog<Int>(limit: 3)
        #expect(log.overflow == nil)
        for value in 0..<10 { log.record(value) }
        #expect(log.events == [0, 1, 2])
        #expect(log.dropped == 7)
        #expect(log.overflow == EventLogOverflow(limit: 3, dropped: 7))
        #expect(log.overflow.map { "\($0)" }?.contains("at most 3 events: 7 more were not kept") == true)
        #expect(EventLog<Int>().limit == 100_000)
    }
}
