import BlueproofAsync
@testable import BlueproofConformance
import BlueproofSpark
import Testing

/// A case whose event log dropped events cannot pass on what it did not keep.
@Suite("Event log overflow in a verdict")
struct EventLogOverflowTests {
    @Test("a pass over a log that dropped events becomes an error naming the node and the limit")
    func overflowIsAnError() {
        let full = SparkEventLog(limit: 2)
        for _ in 0..<5 { full.append(.available(SparkConnectionID(peer: 7, number: 1, outgoing: false))) }
        let outcome = CaseOutcome.pass("all delivered").unlessOverflowed([nil, full.overflow])
        #expect(outcome.verdict == .error)
        #expect(outcome.reason.hasPrefix("node 1: the event log holds at most 2 events: 3 more were not kept"))
        #expect(outcome.reason.contains("pass: all delivered"))
        #expect(CaseOutcome.pass("fine").unlessOverflowed([nil, SparkEventLog().overflow]) == .pass("fine"))
    }
}
