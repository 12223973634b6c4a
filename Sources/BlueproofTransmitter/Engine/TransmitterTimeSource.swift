import Foundation
import Synchronization

/// Where the transmitter reads the time for expiry (mesh packets, secure connections). Read
/// lazily when needed; the transmitter runs no timers.
public protocol TransmitterTimeSource: Sendable {
    func now() -> Date
}

/// The system clock.
public struct SystemTimeSource: TransmitterTimeSource {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock tests move by hand.
public final class ManualTimeSource: TransmitterTimeSource {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
