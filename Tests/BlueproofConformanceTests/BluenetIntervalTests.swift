import BlueproofAsync
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
