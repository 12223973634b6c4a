import BlueproofAsync
import BlueproofBackend
import BlueproofCapture
import BlueproofWire
import Foundation
import Synchronization

/// One start of the implementation under test (`/bin/sh -c COMMAND` in its own process group),
/// with the environment of docs/dut.md, its output in `<folder>/output.log` and its files in
/// `<folder>`. Watches what its host asks of the controller (``DUTActivity``).
public final class DUTLaunch: Sendable {
    /// How one launch ended.
    public enum End: Hashable, Sendable, CustomStringConvertible {
        /// Still running.
        case running
        /// The runner ended it (SIGTERM, or SIGKILL after the grace period).
        case stopped(ChildExit)
        /// It ended on its own with status 0 (a central after its transfer).
        case finished
        /// Status 77: it does not play the role asked.
        case unsupportedRole
        /// Any other status, or a signal it did not get from the runner.
        case crashed(ChildExit)

        public var description: String {
            switch self {
            case .running: "running"
            case let .stopped(exit): "stopped by the runner (\(exit))"
            case .finished: "finished (status 0)"
            case .unsupportedRole: "does not play this role (status \(DUTEnvironment.unsupportedRoleStatus))"
            case let .crashed(exit): "\(exit)"
            }
        }
    }

    public let index: Int
    public let role: DUTRole
    /// The launch's folder: output.log, payload.bin, and what the program wrote.
    public let folder: String
    let process: ChildProcess
    private let activity = Mutex(DUTActivity())
    private let advertising = OneShot<Void>()
    private let scanning = OneShot<Void>()
    private let stopping = Mutex(false)

    init(index: Int, role: DUTRole, exec: DUTExec, environment: [String: String], folder: String) throws {
        self.index = index
        self.role = role
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var environment = environment
        environment[DUTEnvironment.role] = role.rawValue
        environment[DUTEnvironment.output] = folder
        environment["PYTHONUNBUFFERED"] = "1"
        process = try ChildProcess(executable: "/bin/sh", arguments: ["-c", exec.command], environment: environment,
                                   logPath: "\(folder)/output.log", ignoreSIGPIPE: false)
    }

    /// A packet crossing the node's bridge while this launch is the current one.
    func observe(_ direction: CaptureDirection, _ packet: H4Packet) {
        let now = activity.withLock { activity in
            activity.observe(direction, packet)
            return activity
        }
        if now.advertisingEnabled { advertising.resolve(()) }
        if now.scanningEnabled { scanning.resolve(()) }
    }

    /// LE Create Connection commands its host sent.
    public var connectionAttempts: Int { activity.withLock { $0.connectionAttempts } }

    /// Waits until its host enables advertising; throws when it exits first or `limit` passes.
    func waitForAdvertising(within limit: Duration, clock: any Clock<Duration>) async throws(DUTStartFailure) {
        try await waitFor(advertising, "advertise", within: limit, clock: clock)
    }

    /// Waits until its host enables scanning; throws when it exits first or `limit` passes.
    func waitForScanning(within limit: Duration, clock: any Clock<Duration>) async throws(DUTStartFailure) {
        try await waitFor(scanning, "scan", within: limit, clock: clock)
    }

    private func waitFor(_ sign: OneShot<Void>, _ verb: String, within limit: Duration,
                         clock: any Clock<Duration>) async throws(DUTStartFailure) {
        let outcome = try? await withTimeout(limit, clock: clock, what: "the implementation to \(verb)") { () async -> Bool in
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { await sign.wait() != nil }
                group.addTask { _ = await self.process.waitForExit(); return false }
                defer { group.cancelAll() }
                return await group.next() ?? false
            }
        }
        switch outcome {
        case true?: return
        case false?: throw DUTStartFailure(launch: self, what: "ended before it began to \(verb): \(end)")
        case nil: throw DUTStartFailure(launch: self, what: "did not begin to \(verb) within \(limit)")
        }
    }

    /// Waits for the program to end by itself, at most `limit`; then ends it.
    func finish(within limit: Duration, grace: Duration) async -> End {
        _ = await process.exit(within: limit)
        return await stop(grace: grace)
    }

    /// Ends the program (SIGTERM, SIGKILL after `grace`) unless it already ended.
    @discardableResult
    func stop(grace: Duration) async -> End {
        if process.exitStatus == nil {
            stopping.withLock { $0 = true }
            await process.terminate(grace: grace)
        }
        return end
    }

    /// How it ended so far.
    public var end: End {
        guard let exit = process.exitStatus else { return .running }
        if stopping.withLock({ $0 }) { return .stopped(exit) }
        switch exit {
        case .exited(0): return .finished
        case .exited(DUTEnvironment.unsupportedRoleStatus): return .unsupportedRole
        default: return .crashed(exit)
        }
    }

    /// Its output so far (at most the last 64 KiB).
    public var output: String {
        guard let handle = FileHandle(forReadingAtPath: "\(folder)/output.log") else { return "" }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > Self.outputLimit ? size - Self.outputLimit : 0)
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    static let outputLimit: UInt64 = 64 * 1024

    /// The first `blueproof-dut:` line of its output (read from the output's first 16 KiB):
    /// how it names itself.
    public var hello: String? {
        guard let handle = FileHandle(forReadingAtPath: "\(folder)/output.log") else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 16 * 1024)) ?? Data(), as: UTF8.self)
        return head.split(separator: "\n").first { $0.hasPrefix(DUTEnvironment.helloPrefix) }
            .map { $0.dropFirst(DUTEnvironment.helloPrefix.count).trimmingCharacters(in: .whitespaces) }
    }

    /// What a central wrote to `received.bin` (at most `limit` bytes read); nil when it wrote nothing.
    public func received(limit: Int = 32 * 1024 * 1024) -> [UInt8]? {
        let path = "\(folder)/\(DUTEnvironment.receivedFile)"
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: limit)) ?? Data())
    }
}

/// The implementation did not come up for a launch: an `error` (precondition `start`).
public struct DUTStartFailure: Error, Sendable, CustomStringConvertible {
    public let role: DUTRole
    public let index: Int
    public let what: String
    public let output: String

    init(launch: DUTLaunch, what: String) {
        role = launch.role
        index = launch.index
        self.what = what
        output = launch.output
    }

    public var description: String {
        let tail = output.split(separator: "\n").suffix(5).joined(separator: "\n")
        return "the implementation (launch \(index), \(role.rawValue)) \(what)" + (tail.isEmpty ? "" : "; its last output:\n\(tail)")
    }
}
