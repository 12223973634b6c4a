@testable import BlueproofConformance
import BlueproofAsync
import Foundation
import Synchronization
import Testing

/// `run --jobs N` (issue 14, "Concurrent cases"): up to N cases at once, reports in catalogue
/// order, cases that touch process-wide state alone.
@Suite("Concurrent cases")
struct CaseScheduleTests {
    @Test("up to N at once, in order; a case that must run alone runs before the others, with nothing beside it; with --jobs 1 in its turn")
    func schedule() {
        var schedule = CaseSchedule([.works, .works, .alone, .works, .alone, .works], jobs: 2)
        #expect(schedule.startable() == [2], "the first alone case, by itself")
        #expect(schedule.startable() == [], "nothing beside it")
        schedule.finished(2)
        #expect(schedule.startable() == [4], "the second alone case, still by itself")
        schedule.finished(4)
        #expect(schedule.startable() == [0, 1])
        #expect(schedule.startable() == [], "two running")
        schedule.finished(1)
        #expect(schedule.startable() == [3])
        schedule.finished(0)
        #expect(schedule.startable() == [5])
        var serial = CaseSchedule([.works, .alone, .works], jobs: 1)
        #expect(serial.startable() == [0])
        serial.finished(0)
        #expect(serial.startable() == [1], "catalogue order with --jobs 1")
        #expect(serial.startable() == [])
        serial.finished(1)
        #expect(serial.startable() == [2])
    }

    @Test("cases with a quiet window wait beside the N working ones and start first, the longest first; never more than 3 × N of them; with --jobs 1 everything keeps its turn")
    func quietWindows() {
        let w: CaseSchedule.Kind = .waits(.seconds(5))
        var schedule = CaseSchedule([.works, .works, .works, w, w, w, .works, .alone, w], jobs: 2)
        #expect(schedule.startable() == [7], "the alone case first")
        schedule.finished(7)
        #expect(schedule.startable() == [3, 4, 5, 8, 0, 1], "four waiting, two working")
        schedule.finished(3)
        #expect(schedule.startable() == [], "no waiting case left to start")
        schedule.finished(0)
        #expect(schedule.startable() == [2])
        schedule.finished(1)
        #expect(schedule.startable() == [6])

        let cap = CaseSchedule.waitingPerJob * 2
        var capped = CaseSchedule(Array(repeating: w, count: cap + 2) + [.works], jobs: 2)
        #expect(capped.startable() == Array(0..<cap) + [cap + 2, cap], "\(cap) waiting; the working case and then the next waiting one take the working slots")
        #expect(capped.startable() == [], "waiting and working slots full")
        capped.finished(0)
        #expect(capped.startable() == [cap + 1], "a waiting slot is free")

        var serial = CaseSchedule([.works, w, .works], jobs: 1)
        #expect(serial.startable() == [0])
        #expect(serial.startable() == [])
        serial.finished(0)
        #expect(serial.startable() == [1], "catalogue order, one at a time")
        serial.finished(1)
        #expect(serial.startable() == [2])

        var longestFirst = CaseSchedule([.waits(.seconds(2)), .works, .waits(.seconds(30)), .waits(.seconds(5)), .waits(.seconds(30))], jobs: 2)
        #expect(longestFirst.startable() == [2, 4, 3, 0, 1], "the 30 s windows first (in order among equals), then the longer of the rest, then the working one")
    }

    @Test("cases that declare process-wide state (every BFT/LOG case), runs with an implementation under test and a shared --controller run cases alone")
    func runsAlone() throws {
        let config = try configuration(cases: [], in: try Fixtures.folder("schedule-alone"))
        let other = Rendezvous.Case(id: "TEST/JOB/BV-01", meeting: Rendezvous(), waitsForOther: false)
        let logCases = LogCases.all()
        #expect(logCases.count == 9)
        for log in logCases {
            #expect(CaseSchedule.runsAlone(log, in: config)?.contains("process-wide") == true, "\(log.id)")
        }
        // Decided by what the case declares, not by its id.
        #expect(CaseSchedule.runsAlone(Rendezvous.Case(id: "BFT/LOG/BV-03", meeting: Rendezvous(), waitsForOther: false), in: config) == nil)
        #expect(CaseSchedule.runsAlone(other, in: config) == nil)
        var dut = config
        dut.dut = "tcp:127.0.0.1:7000"
        #expect(CaseSchedule.runsAlone(other, in: dut) != nil)
        var shared = config
        shared.controller = try .init(parsing: "unix:/tmp/bt-server-le")
        #expect(CaseSchedule.runsAlone(Rendezvous.Case(id: "TEST/JOB/BV-02", meeting: Rendezvous(), waitsForOther: false,
                                                       controllers: 1), in: shared) != nil)
    }

    @Test("--jobs 2: two cases run at once; the one that ends first is still reported second")
    func concurrentRunReportsInOrder() async throws {
        let meeting = Rendezvous()
        let folder = try Fixtures.folder("schedule-run")
        var config = try configuration(cases: [
            Rendezvous.Case(id: "TEST/JOB/BV-01", meeting: meeting, waitsForOther: true),
            Rendezvous.Case(id: "TEST/JOB/BV-02", meeting: meeting, waitsForOther: false),
        ], in: folder)
        config.jobs = 2
        let printed = Mutex<[CaseID]>([])
        let report = try await Runner(config) { result in printed.withLock { $0.append(result.id) } }.run()
        #expect(report.cases.map(\.verdict) == [.pass, .pass], "\(report.cases.map(\.reason))")
        #expect(report.cases.map(\.id) == ["TEST/JOB/BV-01", "TEST/JOB/BV-02"])
        #expect(printed.withLock { $0 } == ["TEST/JOB/BV-01", "TEST/JOB/BV-02"])
        #expect(meeting.order == ["TEST/JOB/BV-02", "TEST/JOB/BV-01"], "BV-02 ended first")
    }

    @Test("--jobs 1: one after another (the case that waits for the other gives up)")
    func serialRun() async throws {
        let meeting = Rendezvous()
        var config = try configuration(cases: [
            Rendezvous.Case(id: "TEST/JOB/BV-01", meeting: meeting, waitsForOther: true),
            Rendezvous.Case(id: "TEST/JOB/BV-02", meeting: meeting, waitsForOther: false),
        ], in: try Fixtures.folder("schedule-serial"))
        config.jobs = 1
        let report = try await Runner(config).run()
        #expect(report.cases.map(\.verdict) == [.fail, .pass])
    }

    /// Two test-only catalogue entries, TEST/JOB/BV-01 and BV-02.
    static let testGroup = """

          - code: TEST/JOB
            title: "Test only"
            cases:

        """ + ["01", "02"].map { number in """
              - id: TEST/JOB/BV-\(number)
                title: "A case that meets another"
                source: {document: bridgefy-ios-sdk-readme.md, section: "Usage"}
                kind: api
                profile: []
                status: implemented

        """ }.joined()

    func configuration(cases: [any ConformanceCase], in folder: String) throws -> RunConfiguration {
        try Fixtures.runConfiguration(cases: cases, testGroup: Self.testGroup, in: folder)
    }
}

/// Two test cases that need no controller: one waits (at most 2 s) for the other to start, so
/// it passes only when both run at once; each notes when it ends.
final class Rendezvous: Sendable {
    private let otherStarted = OneShot<Void>()
    private let ended = Mutex<[CaseID]>([])
    var order: [CaseID] { ended.withLock { $0 } }

    struct Case: ConformanceCase {
        let id: CaseID
        let meeting: Rendezvous
        let waitsForOther: Bool
        var controllers = 0
        var needs: CaseNeeds { CaseNeeds(controllers: controllers) }

        func run(_ context: CaseContext) async throws -> CaseOutcome {
            defer { meeting.ended.withLock { $0.append(id) } }
            guard waitsForOther else {
                _ = meeting.otherStarted.resolve(())
                return .pass("started")
            }
            let met = (try? await withTimeout(.seconds(2), what: "the other case to start") { await meeting.otherStarted.wait() }) != nil
            return met ? .pass("met the other case") : .fail("the other case did not run beside it")
        }
    }
}
