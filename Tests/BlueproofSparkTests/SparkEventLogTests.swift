import BlueproofSpark
import Testing

/// The timestamped event log the SPK cases read the subject's callbacks from.
@Suite("Spark event log")
struct SparkEventLogTests {
    static let id = SparkConnectionID(peer: 7, number: 1, outgoing: false)

    @Test("records in order with rising timestamps, and finds an event recorded before the wait")
    func ordered() async throws {
        let log = SparkEventLog()
        log.append(.offered(Self.id, metadata: "m"))
        log.append(.available(Self.id))
        #expect(log.events == [.offered(Self.id, metadata: "m"), .available(Self.id)])
        #expect(log.records[0].at <= log.records[1].at)
        let found = try await log.first("available", within: .seconds(5)) { $0 == .available(Self.id) ? true : nil }
        #expect(found)
    }

    @Test("a wait ends on an event that comes later")
    func later() async throws {
        let log = SparkEventLog()
        async let found = log.first("accepted", within: .seconds(10)) { $0 == .accepted(Self.id) ? "yes" : nil }
        try await Task.sleep(for: .milliseconds(50))
        log.append(.available(Self.id))
        log.append(.accepted(Self.id))
        #expect(try await found == "yes")
    }

    @Test("a wait that sees nothing names what it awaited")
    func timeout() async throws {
        let log = SparkEventLog()
        let error = await #expect(throws: (any Error).self) {
            try await log.first("dataConnectionAccepted", within: .milliseconds(50)) { $0 == .accepted(Self.id) ? true : nil }
        }
        #expect(error.map { "\($0)" }?.contains("waiting for dataConnectionAccepted") == true)
    }

    @Test("past its limit the log keeps the oldest and counts the rest")
    func bounded() {
        let log = SparkEventLog(limit: 3)
        for _ in 0..<10 { log.append(.available(Self.id)) }
        #expect(log.records.count == 3)
        #expect(log.dropped == 7)
    }
}
