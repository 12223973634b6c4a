import BlueproofAsync
@testable import BlueproofConformance
import Testing

/// BLN/BCN/BV-04 and BLN/LOC/BV-02 judge "once a second" by the median gap between the
/// subject's events (`BluenetStage.everyInterval(after:)`): one late wake-up of a loaded
/// runner moves a single gap, a subject on another schedule moves the median.
@Suite("Bluenet: the median of the gaps between events")
struct BluenetIntervalTests {
    static func ms(_ values: Int...) -> [Duration] { values.map { .milliseconds($0) } }

    @Test("odd and even counts; none")
    func median() {
        #expect(BlueproofAsync.median(Self.ms(1000, 1001, 1526, 1006)) == .microseconds(1_003_500))
        #expect(BlueproofAsync.median(Self.ms(2000, 1000, 1500)) == .milliseconds(1500))
        #expect(BlueproofAsync.median(Self.ms(2000, 2000)) == .milliseconds(2000), "every other round: twice the interval")
        #expect(BlueproofAsync.median([Duration]()) == nil)
    }
}

/// The verdict of "once every interval" beside the runner's own ticker.
@Suite("Bluenet: once every interval, judged beside the runner's own ticker")
struct BluenetIntervalJudgementTests {
    /// The verdict on events heard at `at` ms, the ticker late by `lateness` ms (median) and
    /// `worst` ms (its worst wake-up; the median when not given).
    static func judge(_ at: [Int], lateness: Int, worst: Int? = nil) -> BluenetIntervalJudgement.Verdict {
        BluenetIntervalJudgement(events: at.map { .milliseconds($0) }, interval: .seconds(1), watch: .milliseconds(4500),
                                 lateness: .init(median: .milliseconds(lateness), worst: .milliseconds(worst ?? lateness)),
                                 topic: "iBeaconAdvertisement").verdict
    }

    @Test("on time is regular, whatever the ticker did")
    func regular() {
        #expect(Self.judge([0, 1000, 2010, 2990, 4000], lateness: 0) == .regular)
        #expect(Self.judge([0, 1000, 2010, 2990, 4000], lateness: 900) == .regular)
    }

    @Test("late rounds with the ticker on time fail; the same rounds with the ticker as late are inconclusive")
    func loaded() {
        // Heard on a machine at load 9 (stop 61): gaps 1.100, 1.893, 1.477 s.
        let heard = [0, 1100, 2993, 4470]
        #expect(Self.judge(heard, lateness: 50) == .irregular)
        #expect(Self.judge(heard, lateness: 600) == .disturbed)
    }

    @Test("a round left out, bursts, too few events: irregular unless the ticker was as late as the fault")
    func schedules() {
        #expect(Self.judge([0, 2000, 4000], lateness: 500) == .irregular, "every other round")
        #expect(Self.judge([0, 100, 200, 300, 4000], lateness: 300) == .irregular, "a burst")
        #expect(Self.judge([0, 1000, 2000], lateness: 0) == .irregular, "three rounds in four and a half intervals")
        #expect(Self.judge([0, 1000, 2000], lateness: 5, worst: 900) == .irregular, "a wake-up under an interval late explains no missing round")
        #expect(Self.judge([0, 2000, 4000], lateness: 1000) == .disturbed, "a ticker a whole interval late all along explains a missed round")
        #expect(Self.judge([0, 2000, 4000], lateness: 20, worst: 1000) == .irregular, "one late wake-up does not move a median of gaps")
        #expect(Self.judge([0, 100, 200, 300, 4000], lateness: 50, worst: 2000) == .irregular, "bursts: the median is the ticker's median away")
    }

    @Test("the ticker runs through the watch: it returns no sooner than the watch's end")
    func ticker() async {
        let clock = ContinuousClock()
        let start = clock.now
        _ = await BluenetIntervalJudgement.tickerLateness(over: .milliseconds(300), step: .milliseconds(100), on: clock)
        #expect(start.duration(to: clock.now) >= .milliseconds(300))
    }
}
