import BlueproofTransmitter
import Foundation
import Synchronization

/// The reference transmitter's clock in a case: the system clock, moved forward by hand
/// (`TransmitterProvider.advanceClock`) for behaviour that must hold "however long the clock
/// runs" (BFT/SES/BV-06).
///
/// It starts at the wall clock and then runs on the monotonic clock, so a step of the wall
/// clock mid-case (a time sync, a resumed virtual machine) cannot move an expiry the case
/// measures in seconds: only `advance` and real elapsed time move it.
final class OffsetTimeSource: TransmitterTimeSource {
    private let start = (wall: Date(), monotonic: ContinuousClock.now)
    private let offset = Mutex<TimeInterval>(0)

    func now() -> Date {
        let elapsed = (ContinuousClock.now - start.monotonic) / .seconds(1)
        return start.wall.addingTimeInterval(elapsed + offset.withLock { $0 })
    }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
