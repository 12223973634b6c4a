import BlueproofAsync
import Synchronization

/// One event of a Spark node and when it was recorded.
public struct SparkRecord: Sendable {
    public var at: ContinuousClock.Instant
    public var event: SparkEvent

    public init(at: ContinuousClock.Instant, event: SparkEvent) {
        self.at = at
        self.event = event
    }
}

/// The events of one Spark node (the sample's delegate callbacks), timestamped as they come,
/// for a case to read and wait on. Holds at most `limit` records (a subject flooding events
/// cannot grow it without bound); the count dropped past it is kept.
public final class SparkEventLog: Sendable {
    public static let defaultLimit = 100_000

    private struct State {
        var records: [SparkRecord] = []
        var dropped = 0
        var subscribers: [UInt64: AsyncStream<SparkRecord>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
    }

    public let limit: Int
    private let state = Mutex(State())

    public init(limit: Int = SparkEventLog.defaultLimit) { self.limit = max(1, limit) }

    public func append(_ event: SparkEvent) {
        let record = SparkRecord(at: .now, event: event)
        let subscribers = state.withLock { state in
            if state.records.count < limit { state.records.append(record) } else { state.dropped += 1 }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(record) }
    }

    /// Every record so far, oldest first.
    public var records: [SparkRecord] { state.withLock { $0.records } }
    /// The events so far, oldest first.
    public var events: [SparkEvent] { records.map(\.event) }
    /// Records left out past `limit`.
    public var dropped: Int { state.withLock { $0.dropped } }

    /// The records so far, then every new one.
    public func stream() -> AsyncStream<SparkRecord> {
        let (stream, continuation) = AsyncStream.makeStream(of: SparkRecord.self)
        let id = state.withLock { state in
            for record in state.records { continuation.yield(record) }
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    /// The first event, recorded or to come, that `match` maps to a value; throws
    /// `TimeoutError` naming `what` when none comes within `limit`.
    public func first<T: Sendable>(_ what: String, within limit: Duration, _ match: @escaping @Sendable (SparkEvent) -> T?) async throws -> T {
        let stream = stream()
        return try await withTimeout(limit, what: what) {
            for await record in stream { if let value = match(record.event) { return value } }
            throw CancellationError()
        }
    }
}
