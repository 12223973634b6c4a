import BlueproofTransmitter
import Foundation
import Synchronization

/// The reference transmitter's clock in a case: the system clock, moved forward by hand
/// (`TransmitterProvider.advanceClock`) for behaviour that must hold "however long the clock
/// runs" (BFT/SES/BV-06).
final class OffsetTimeSource: TransmitterTimeSource {
    private let offset = Mutex<TimeInterval>(0)

    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
