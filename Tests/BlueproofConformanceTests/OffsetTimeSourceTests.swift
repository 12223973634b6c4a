@testable import BlueproofConformance
import Foundation
import Testing

/// The reference's clock in a case follows the system clock until the case moves it; from then
/// on real time no longer moves it (BFT/SEC/BI-03 measures idle spans in the case's steps, and
/// a loaded machine must not stretch them), only the case's steps do.
@Suite("The case's clock for the reference")
struct OffsetTimeSourceTests {
    /// Spins until the system clock has passed `instant` by `margin` (real time passing, no event to await).
    static func realTime(past instant: Date, by margin: TimeInterval) {
        while Date().timeIntervalSince(instant) < margin {}
    }

    @Test("unmoved it runs with the system clock; held it stands still however long real time runs; each step moves it exactly")
    func heldClock() {
        let clock = OffsetTimeSource()
        let start = clock.now()
        Self.realTime(past: start, by: 0.02)
        #expect(clock.now().timeIntervalSince(start) >= 0.02)
        clock.advance(by: 0)
        let held = clock.now()
        Self.realTime(past: Date(), by: 0.02)
        #expect(clock.now() == held)
        clock.advance(by: 3)
        #expect(clock.now() == held.addingTimeInterval(3))
        clock.advance(by: 5)
        Self.realTime(past: Date(), by: 0.02)
        #expect(clock.now() == held.addingTimeInterval(8))
    }
}
