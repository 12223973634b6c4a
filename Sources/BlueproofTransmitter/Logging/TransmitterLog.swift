import Foundation
import Logging
import Synchronization

/// The transmitter's process-wide log (bridgefy-ios-sdk-readme.md, "Log levels"): one level for
/// every transmitter in the process, `.error` by default; each level includes the ones below.
/// Lines go through swift-log under the label `blueproof.transmitter`. Callers never pass key
/// material or payload plaintext: messages name packets by id and users by id only.
public enum TransmitterLog {
    public static let label = "blueproof.transmitter"

    private struct State: Sendable {
        var level: TransmitterLogLevel = .error
        var logger = Logger(label: TransmitterLog.label)
        var sinks: [UUID: Sink] = [:]
    }

    /// Where one transmitter's own lines also go (its `log` events).
    private struct Sink: Sendable {
        var user: UserID
        /// ``TransmitterDefects/logLevelIgnored``: every line, whatever the level.
        var ignoringLevel: Bool
        var deliver: @Sendable (TransmitterLogLevel, String) -> Void
    }

    /// Also sends the lines written for `user` that the level lets through to `deliver`, until
    /// `detach` with the returned token.
    public static func attach(user: UserID, ignoringLevel: Bool = false,
                              _ deliver: @escaping @Sendable (TransmitterLogLevel, String) -> Void) -> UUID {
        let token = UUID()
        state.withLock { $0.sinks[token] = Sink(user: user, ignoringLevel: ignoringLevel, deliver: deliver) }
        return token
    }

    public static func detach(_ token: UUID) {
        _ = state.withLock { $0.sinks.removeValue(forKey: token) }
    }

    private static let state = Mutex(State())

    /// The process-wide level.
    public static var level: TransmitterLogLevel {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    /// Routes the lines to `factory`'s handler instead of the swift-log bootstrap (tests capture
    /// output this way; `LoggingSystem.bootstrap` may run only once per process).
    public static func use(_ factory: @escaping @Sendable (String) -> any LogHandler) {
        state.withLock { $0.logger = Logger(label: label, factory: factory) }
    }

    /// Writes `message` if `level` is enabled.
    public static func log(_ level: TransmitterLogLevel, _ message: @autoclosure () -> String, user: UserID? = nil) {
        let (enabled, logger, sinks) = state.withLock { state in
            (state.level >= level, state.logger, state.sinks.values.filter { $0.user == user })
        }
        let receivers = sinks.filter { enabled || $0.ignoringLevel }
        guard enabled || !receivers.isEmpty else { return }
        let text = message()
        for sink in receivers { sink.deliver(level, text) }
        guard enabled else { return }
        var line = logger
        line.logLevel = .trace
        let metadata: Logger.Metadata = user.map { ["user": "\($0)"] } ?? [:]
        line.log(level: level.swiftLogLevel, "\(text)", metadata: metadata)
    }

    /// The per-packet mesh trace line: packet id, hops remaining, the neighbour it came from or
    /// went to, and the action taken.
    public static func meshTrace(packet: PacketID, hops: UInt8, peer: UserID?, action: String, user: UserID?) {
        log(.trace, "mesh packet=\(packet) hop=\(hops) peer=\(peer.map(\.description) ?? "-") action=\(action)", user: user)
    }
}

extension TransmitterLogLevel {
    /// The level's name ("Log levels", lower case): `error`, `info`, `debug`, `trace`.
    public var name: String { "\(self)" }

    /// The level with this name.
    public static func named(_ name: String?) -> TransmitterLogLevel? {
        allCases.first { $0.name == name }
    }

    /// The swift-log level a line of this level is written at.
    public var swiftLogLevel: Logger.Level {
        switch self {
        case .error: .error
        case .info: .info
        case .debug: .debug
        case .trace: .trace
        }
    }
}
