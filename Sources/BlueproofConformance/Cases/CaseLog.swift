import BlueproofAsync
import Foundation
import Synchronization

/// What a case and the runner noted while the case ran, with times since it started; the
/// report keeps the last ``excerptLines`` lines.
public final class CaseLog: Sendable {
    public static let excerptLines = 40
    private let lines = Mutex<[String]>([])
    private let start = ContinuousClock.now

    public init() {}

    public func note(_ text: String) {
        let elapsed = ContinuousClock.now - start
        let stamp = String(format: "%7.3f", elapsed.seconds)
        lines.withLock { $0.append("[\(stamp)] \(text)") }
    }

    public var all: [String] { lines.withLock { $0 } }
    public var excerpt: [String] { Array(all.suffix(Self.excerptLines)) }
}
