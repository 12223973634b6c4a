import Logging
import Synchronization

/// Collects what a component logs, so a test can wait for a log line as an event.
///
/// ``logger`` hands out a `Logger` whose handler records every message at every level;
/// ``line(containing:level:)`` waits for the first recorded line that matches, counting lines
/// logged before the call as well.
final class LogRecorder: Sendable {
    struct Line: Hashable, Sendable {
        let level: Logger.Level
        let message: String
    }

    private struct State {
        var lines: [Line] = []
        var live: [UInt64: AsyncStream<Line>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// A logger that records into this recorder, at every level.
    func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Every line so far.
    var lines: [Line] { state.withLock { $0.lines } }

    /// Every line: those logged so far, then the rest as they come.
    func stream() -> AsyncStream<Line> {
        let (stream, continuation) = AsyncStream.makeStream(of: Line.self)
        state.withLock { state in
            for line in state.lines { continuation.yield(line) }
            state.nextID += 1
            let id = state.nextID
            state.live[id] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.live.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// The first line at `level` whose message contains `text`, once it is logged; nil when the
    /// waiting task is cancelled first.
    func line(containing text: String, level: Logger.Level = .warning) async -> String? {
        for await line in stream() where line.level == level && line.message.contains(text) {
            return line.message
        }
        return nil
    }

    fileprivate func record(_ line: Line) {
        state.withLock { state in
            state.lines.append(line)
            for continuation in state.live.values { continuation.yield(line) }
        }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.record(Line(level: event.level, message: event.message.description))
        }
    }
}
