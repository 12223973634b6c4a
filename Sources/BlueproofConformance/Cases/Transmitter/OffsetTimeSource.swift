import BlueproofTransmitter
import Foundation
import Synchronization

/// The reference transmitter's clock in a case: the system clock until the case first moves it
/// (`TransmitterProvider.advanceClock`, `TransmitterStage.holdSubjectClock`); from then on it
/// stands still and moves only by the case's steps.
///
/// An expiry case measures idle spans of a few seconds on this clock (BFT/SEC/BI-03: 3 s, then
/// 5 s, against a limit of 4). Were real time still added, a send that waited seconds for a
/// thread on a loaded machine would reach the subject later than the case's step says, and a
/// late limit (a broken variant) could look right, or a right one early. Held, the spans are
/// exactly the steps; behaviour that must hold "however long the clock runs" (BFT/SES/BV-06)
/// still sees the clock run.
final class OffsetTimeSource: TransmitterTimeSource {
    /// The reading once held; nil while the clock still follows the system clock.
    private let held = Mutex<Date?>(nil)

    func now() -> Date { held.withLock { $0 } ?? Date() }

    /// Holds the clock at its reading now (if not yet held) and moves it on by `seconds`.
    func advance(by seconds: TimeInterval) {
        held.withLock { $0 = ($0 ?? Date()).addingTimeInterval(seconds) }
    }
}
