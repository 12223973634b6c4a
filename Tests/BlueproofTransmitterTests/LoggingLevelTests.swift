import BlueproofTestSupport
import BlueproofTransmitter
import Foundation
import Logging
import Synchronization
import Testing

/// Captures every line written through `TransmitterLog`.
final class CapturedLog: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var user: String?
    }

    private let lines = Mutex<[Line]>([])

    static let shared: CapturedLog = {
        let log = CapturedLog()
        TransmitterLog.use { _ in Handler(log: log) }
        return log
    }()

    func record(_ line: Line) { lines.withLock { $0.append(line) } }
    var all: [Line] { lines.withLock { $0 } }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            log.record(Line(level: event.level, message: event.message.description, user: event.metadata?["user"]?.description))
        }
    }
}

@Suite("Logging: process-wide levels, no secrets", .serialized, .timeLimit(.minutes(5)))
struct LoggingLevelTests {
    /// Runs a small scenario at `level` (a forged frame for an error line, a connection, a mesh
    /// packet carrying `marker`) and returns the lines of its nodes, and every line captured.
    /// The level is process-wide: the scenario holds `ExclusiveGate.transmitterLogLevel`, so
    /// the conformance tests' BFT/LOG cases never set another level meanwhile.
    static func scenario(at level: TransmitterLogLevel, marker: String, defects: TransmitterDefects = []) async throws -> (ours: [CapturedLog.Line], all: [CapturedLog.Line], key: String, events: [TransmitterEvent]) {
        try await ExclusiveGate.transmitterLogLevel.exclusive {
            try await scenarioAlone(at: level, marker: marker, defects: defects)
        }
    }

    static func scenarioAlone(at level: TransmitterLogLevel, marker: String, defects: TransmitterDefects) async throws -> (ours: [CapturedLog.Line], all: [CapturedLog.Line], key: String, events: [TransmitterEvent]) {
        let log = CapturedLog.shared
        let harness = EngineHarness()
        let a = try await harness.node(defects: defects)
        await a.transmitter.setLogLevel(level)
        #expect(TransmitterLog.level == level)
        let b = try await harness.node(defects: defects)
        try await harness.link(a, b)
        let forger = try await RawNode.join(harness, nextTo: b.user)
        try await b.recorder.first { $0 == .connected(forger.identity.userID) }
        var bad = try forger.frame(claiming: forger.identity.userID, to: b.user, text: "x", expiry: harness.clock.now().addingTimeInterval(60))
        bad.signature[0] ^= 1
        try await forger.send(bad, to: b.user)
        try await b.transmitter.savePublicKey(try await a.transmitter.localPublicKey(), forUser: a.user)
        try await a.transmitter.savePublicKey(try await b.transmitter.localPublicKey(), forUser: b.user)
        let id = try await a.transmitter.send(dictionary: ["secret": .string(marker)], data: nil, to: b.user, options: [.meshTransmission])
        _ = try await b.recorder.receivedPacket(id)
        let encrypted = try await a.transmitter.send(dictionary: ["secret": .string(marker)], data: nil, to: b.user, options: [.meshTransmission, .encrypted])
        _ = try await b.recorder.receivedPacket(encrypted)
        await harness.network.quiescent()
        await a.transmitter.stop()
        // Log events arrive after the lines are written: the last one is "stopped" (info).
        if level >= .info || defects.contains(.logLevelIgnored) {
            try await a.recorder.first { $0 == .log(.info, "stopped") }
        }
        let users = Set([a.user.description, b.user.description])
        let key = try await a.transmitter.localPublicKey()
        TransmitterLog.level = .error
        return (log.all.filter { $0.user.map(users.contains) ?? false }, log.all, key, a.recorder.events)
    }

    @Test("each level includes the ones below and nothing above", arguments: TransmitterLogLevel.allCases)
    func levels(level: TransmitterLogLevel) async throws {
        let (ours, _, _, events) = try await Self.scenario(at: level, marker: "marker-\(UUID())")
        let levels = Set(ours.map(\.level))
        #expect(levels.contains(.error), "the forged frame is logged at every level")
        #expect(levels.contains(.info) == (level >= .info))
        #expect(levels.contains(.debug) == (level >= .debug))
        #expect(levels.contains(.trace) == (level >= .trace))
        #expect(ours.allSatisfy { $0.level >= level.swiftLogLevel })
        // The transmitter's own lines come back as its log events, filtered the same way.
        let reported = events.compactMap { if case let .log(line, _) = $0 { line } else { nil } }
        #expect(!reported.isEmpty || level == .error)
        #expect(reported.allSatisfy { $0 <= level }, "\(reported)")
    }

    @Test("defect logLevelIgnored: at error the transmitter still reports its debug lines as events")
    func levelIgnoredDefect() async throws {
        let (ours, _, _, events) = try await Self.scenario(at: .error, marker: "marker-\(UUID())", defects: .logLevelIgnored)
        #expect(!ours.contains { $0.level == .debug }, "the log itself still follows the level")
        #expect(events.contains { if case .log(.debug, _) = $0 { true } else { false } })
    }

    @Test("trace carries per-packet mesh lines; no level prints the payload or the key")
    func traceAndSecrets() async throws {
        let marker = "plaintext-\(UUID())"
        let (ours, all, key, _) = try await Self.scenario(at: .trace, marker: marker)
        let mesh = ours.filter { $0.level == .trace && $0.message.hasPrefix("mesh packet=") }
        #expect(mesh.contains { $0.message.contains("action=forward") })
        #expect(mesh.contains { $0.message.contains("action=deliver") })
        #expect(mesh.allSatisfy { $0.message.contains(" hop=") && $0.message.contains(" peer=") })
        #expect(!all.contains { $0.message.contains(marker) })
        #expect(!all.contains { $0.message.contains(key) || $0.message.contains(String(key.prefix(40))) })
    }

    @Test("defect traceLeaksPayload: the plaintext appears at trace")
    func leakDefect() async throws {
        let marker = "plaintext-\(UUID())"
        let (_, all, _, _) = try await Self.scenario(at: .trace, marker: marker, defects: .traceLeaksPayload)
        #expect(all.contains { $0.message.contains(marker) })
    }
}
