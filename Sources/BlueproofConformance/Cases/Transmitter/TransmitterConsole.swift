import BlueproofTransmitter
import Logging
import Synchronization

/// What the runner's own reference transmitters print (bridgefy-ios-sdk-readme.md, "Log
/// levels": each level "prints" its lines): a swift-log handler for `TransmitterLog.use` that
/// keeps every line with the user it was written for, instead of writing it out. `blueproof run`
/// installs one and hands it to the reference provider, so the BFT/LOG cases can check that the
/// lines the subject reports (its `log` events) are the lines it printed, at the level set.
/// An implementation under test prints where the runner cannot see: its provider has none.
public final class TransmitterConsole: Sendable {
    public struct Line: Hashable, Sendable {
        public var user: String?
        public var level: Logger.Level
        public var text: String
    }

    /// Lines kept, oldest dropped first: a run prints at trace level only in a few cases.
    public static let capacity = 200_000
    private let kept = Mutex<[Line]>([])

    public init() {}

    /// The lines printed for `user`, in order.
    public func lines(for user: UserID) -> [Line] {
        let name = user.description
        return kept.withLock { $0.filter { $0.user == name } }
    }

    /// A handler for `TransmitterLog.use`.
    public func handler() -> any LogHandler { Handler(console: self) }

    func record(_ line: Line) {
        kept.withLock { lines in
            if lines.count >= Self.capacity { lines.removeFirst(lines.count - Self.capacity + 1) }
            lines.append(line)
        }
    }

    struct Handler: LogHandler {
        let console: TransmitterConsole
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            console.record(Line(user: event.metadata?["user"]?.description, level: event.level, text: event.message.description))
        }
    }
}
