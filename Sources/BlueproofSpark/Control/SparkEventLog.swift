import BlueproofAsync

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
/// for a case to read and wait on: an ``EventLog`` of ``SparkRecord``s, with its bound
/// (``overflow`` names the limit past which records are counted, not kept).
public final class SparkEventLog: Sendable {
    public static let defaultLimit = EventLog<SparkRecord>.defaultLimit

    /// The records, with their waiters and bound.
    public let log: EventLog<SparkRecord>

    public init(limit: Int = SparkEventLog.defaultLimit) { log = EventLog(limit: limit) }

    public var limit: Int { log.limit }

    /// Records `event`, timestamped now.
    public func append(_ event: SparkEvent) { log.record(SparkRecord(at: .now, event: event)) }

    /// Every record so far, oldest first.
    public var records: [SparkRecord] { log.events }
    /// The events so far, oldest first.
    public var events: [SparkEvent] { records.map(\.event) }
    /// Records left out past `limit`.
    public var dropped: Int { log.dropped }
    /// Why the log is not the whole story, once records were dropped past `limit`.
    public var overflow: EventLogOverflow? { log.overflow }

    /// The first event, recorded or to come, that `match` maps to a value, passing over the
    /// first `start` recorded; throws `TimeoutError` naming `what` when none comes within `limit`.
    public func first<T: Sendable>(_ what: String, within limit: Duration, from start: Int = 0,
                                   _ match: @escaping @Sendable (SparkEvent) -> T?) async throws -> T {
        guard let record = await log.first(within: limit, from: start, where: { match($0.event) != nil }), let value = match(record.event) else {
            try Task.checkCancellation()
            throw TimeoutError(what: what, limit: "\(limit)")
        }
        return value
    }
}
