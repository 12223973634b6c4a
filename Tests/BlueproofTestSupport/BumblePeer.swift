import BlueproofAsync
import BlueproofBackend
import CBlueproofSystem
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A Google Bumble peer (`Tests/IntegrationTests/Bumble/peer.py`) running against a controller,
/// for interop tests: the independent host stack our own is checked against.
///
/// The peer is a ``ChildProcess``: its own process group, SIGKILL when the test process dies,
/// stdout and stderr in a log file. Its JSON events come on a pipe of their own (the script's
/// `--events-fd 3`), so nothing Python or Bumble prints can corrupt them.
///
/// ```swift
/// let peer = try BumblePeer.start("gatt-server", transport: BumblePeer.transport(for: backend),
///                                 log: folder.file("server.log"), arguments: ["--notify-bytes", "1000"])
/// let ready = try await peer.next(event: "ready", within: .seconds(10))
/// ...
/// await peer.stop()
/// ```
///
/// Tests that cannot reach `stop()` (a thrown error) still leave nothing behind: dropping the
/// last reference SIGKILLs the peer's process group. ``withPeer(_:transport:log:arguments:_:)``
/// scopes a peer to a closure.
public final class BumblePeer: Sendable {
    /// The mode it runs (`gatt-server`, `l2cap-client`, ...).
    public let mode: String
    /// Where its stdout and stderr (Bumble's log) go.
    public let logPath: String
    public let process: ChildProcess
    private let state = Mutex(State())

    private struct State {
        var events: [BumbleEvent] = []
        var consumed: Set<Int> = []
        var finished = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var streams: [UInt64: AsyncStream<BumbleEvent>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    // MARK: - Starting and stopping

    /// Starts `peer.py --transport transport mode arguments…` with the project venv's python;
    /// `environment` is added to the child's (e.g. `BUMBLE_SNOOPER` for a btsnoop of its HCI).
    public static func start(_ mode: String, transport: String, log: String, arguments: [String] = [],
                             environment: [String: String] = [:]) throws -> BumblePeer {
        let components = try BumbleComponents.locate().get()
        var fds: [Int32] = [-1, -1]
        let piped = bp_pipe_cloexec(&fds)
        guard piped == 0 else {
            throw BumblePeerError(message: "cannot create the event pipe: \(String(cString: strerror(-piped)))")
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: components.python,
                arguments: ["-u", components.script, "--transport", transport, "--events-fd", "3", mode] + arguments,
                environment: environment.merging(["PYTHONUNBUFFERED": "1"]) { _, fixed in fixed }, logPath: log, passDescriptor: writeEnd, ignoreSIGPIPE: false)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        // The child holds its own copy: end of file on the pipe now means the peer is gone.
        close(writeEnd)
        return BumblePeer(mode: mode, process: process, logPath: log, readEnd: readEnd)
    }

    /// Runs `body` with a started peer and stops the peer however `body` ends.
    public static func withPeer<T: Sendable>(
        _ mode: String, transport: String, log: String, arguments: [String] = [],
        environment: [String: String] = [:],
        _ body: (BumblePeer) async throws -> T
    ) async throws -> T {
        let peer = try start(mode, transport: transport, log: log, arguments: arguments, environment: environment)
        do {
            let result = try await body(peer)
            await peer.stop()
            return result
        } catch {
            await peer.stop()
            throw error
        }
    }

    private init(mode: String, process: ChildProcess, logPath: String, readEnd: Int32) {
        self.mode = mode
        self.process = process
        self.logPath = logPath
        let thread = Thread { [weak self] in
            Self.readEvents(from: readEnd) { event in self?.append(event) }
            self?.finish()
        }
        thread.name = "bumble \(mode) events"
        thread.start()
    }

    deinit {
        // Never leave a peer running: a test that threw before stop() drops its peer here.
        if process.exitStatus == nil { kill(-process.pid, SIGKILL) }
    }

    /// Ends the peer (SIGTERM, SIGKILL after `grace`) and waits for it. Idempotent.
    @discardableResult
    public func stop(grace: Duration = .seconds(2)) async -> ChildExit? {
        await process.terminate(grace: grace)
    }

    /// Waits for the peer to exit by itself (a client mode after "done").
    public func exit(within limit: Duration) async throws -> ChildExit {
        guard let exit = await process.exit(within: limit) else {
            throw failure("to exit", waited: limit)
        }
        return exit
    }

    // MARK: - Events

    /// Every event so far, in order.
    public var history: [BumbleEvent] { state.withLock { $0.events } }

    /// Every event, from the first one (earlier ones replayed), until the peer's pipe closes.
    public var events: AsyncStream<BumbleEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BumbleEvent.self)
        let id = state.withLock { state -> UInt64? in
            for event in state.events { continuation.yield(event) }
            if state.finished { return nil }
            state.nextID += 1
            state.streams[state.nextID] = continuation
            return state.nextID
        }
        if let id {
            continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.streams.removeValue(forKey: id) } }
        } else {
            continuation.finish()
        }
        return stream
    }

    /// The earliest event named `name` not yet returned by `next` (events may come in any
    /// order relative to each other; each is returned once). Throws ``BumblePeerError``, with
    /// the events seen and the tail of the peer's log, when the peer reports an error, exits
    /// first, or `limit` passes.
    public func next(event name: String, within limit: Duration, where match: @escaping @Sendable (BumbleEvent) -> Bool = { _ in true }) async throws -> BumbleEvent {
        let found = try? await withTimeout(limit, what: "\(name) from the Bumble \(mode)") { [self] in
            try await waitFor(name, match)
        }
        if let found { return found }
        if let error = state.withLock({ $0.events.first { $0.name == "error" } }), name != "error" {
            throw failure("\"\(name)\"", reason: "the peer failed: \(error.string("message") ?? error.line)")
        }
        if state.withLock({ $0.finished }) {
            let exit = await process.exit(within: .seconds(2))
            throw failure("\"\(name)\"", reason: "the peer \(exit?.description ?? "closed its event pipe")")
        }
        throw failure("\"\(name)\"", waited: limit)
    }

    private enum Outcome: Error { case error, finished }

    private func waitFor(_ name: String, _ match: @Sendable (BumbleEvent) -> Bool) async throws -> BumbleEvent {
        var seen = 0
        while true {
            let result: Result<BumbleEvent, Outcome>? = state.withLock { state in
                if let index = state.events.indices.first(where: {
                    !state.consumed.contains($0) && state.events[$0].name == name && match(state.events[$0])
                }) {
                    state.consumed.insert(index)
                    return .success(state.events[index])
                }
                if name != "error" && state.events.contains(where: { $0.name == "error" }) { return .failure(.error) }
                if state.finished { return .failure(.finished) }
                seen = state.events.count
                return nil
            }
            switch result {
            case let .success(event)?: return event
            case let .failure(outcome)?: throw outcome
            case nil: await changed(after: seen)
            }
            try Task.checkCancellation()
        }
    }

    /// Returns once there are more than `count` events, the pipe closed, or the task is cancelled.
    private func changed(after count: Int) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.events.count > count || state.finished || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func append(_ event: BumbleEvent) {
        let (waiters, streams) = state.withLock { state in
            state.events.append(event)
            defer { state.waiters.removeAll() }
            return (Array(state.waiters.values), Array(state.streams.values))
        }
        for stream in streams { stream.yield(event) }
        for waiter in waiters { waiter.resume() }
    }

    private func finish() {
        let (waiters, streams) = state.withLock { state in
            state.finished = true
            defer {
                state.waiters.removeAll()
                state.streams.removeAll()
            }
            return (Array(state.waiters.values), Array(state.streams.values))
        }
        for stream in streams { stream.finish() }
        for waiter in waiters { waiter.resume() }
    }

    /// Reads JSON lines until end of file; a line that is not a JSON object becomes an
    /// event named "unparsed" (so a broken peer shows in the history instead of vanishing).
    private static func readEvents(from fd: Int32, _ deliver: (BumbleEvent) -> Void) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if !line.isEmpty { deliver(BumbleEvent(line: line)) }
            }
        }
        close(fd)
    }

    // MARK: - Errors

    private func failure(_ what: String, waited limit: Duration) -> BumblePeerError {
        failure(what, reason: "timed out after \(limit)")
    }

    private func failure(_ what: String, reason: String) -> BumblePeerError {
        let events = history.suffix(12).map { "  \($0.line.prefix(300))" }.joined(separator: "\n")
        return BumblePeerError(message: """
            Bumble \(mode) (pid \(process.pid)): waiting for \(what): \(reason)
            events so far:
            \(events.isEmpty ? "  (none)" : events)
            log tail (\(logPath)):
            \(process.logTail(lines: 20))
            """)
    }

    // MARK: - Locating things

    /// The Bumble transport string for a controller endpoint: `unix:PATH` for btvirt's socket,
    /// `tcp-client:HOST:PORT` for Rootcanal's HCI port.
    public static func transport(for backend: any ControllerBackend) throws -> String {
        guard let endpoint = (backend as? ProcessBackend)?.endpoint else {
            throw BumblePeerError(message: "backend \(backend.name) has no endpoint Bumble can open")
        }
        switch endpoint {
        case let .unix(path): return "unix:\(path)"
        case let .tcp(host, port): return "tcp-client:\(host):\(port)"
        default: throw BumblePeerError(message: "Bumble cannot open \(endpoint)")
        }
    }
}

/// An event of the peer: one JSON object, `{"event": name, …}`.
public struct BumbleEvent: Sendable, CustomStringConvertible {
    public let name: String
    public let fields: [String: JSONValue]
    /// The line as the peer wrote it.
    public let line: String

    init(line: String) {
        self.line = line
        let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
        fields = object ?? [:]
        name = object?["event"]?.string ?? "unparsed"
    }

    public subscript(key: String) -> JSONValue? { fields[key] }
    public func string(_ key: String) -> String? { fields[key]?.string }
    public func int(_ key: String) -> Int? { fields[key]?.int }
    public func double(_ key: String) -> Double? { fields[key]?.double }
    public func bool(_ key: String) -> Bool? { fields[key]?.bool }
    public var description: String { line }
}

/// A JSON value of an event.
public enum JSONValue: Sendable, Hashable, Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public var string: String? { if case let .string(value) = self { value } else { nil } }
    public var double: Double? { if case let .number(value) = self { value } else { nil } }
    public var int: Int? { double.flatMap { Int(exactly: $0) } }
    public var bool: Bool? { if case let .bool(value) = self { value } else { nil } }
    public var array: [JSONValue]? { if case let .array(value) = self { value } else { nil } }
    public var object: [String: JSONValue]? { if case let .object(value) = self { value } else { nil } }
    public subscript(key: String) -> JSONValue? { object?[key] }
}

public struct BumblePeerError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The venv python with Bumble, and the peer script.
public struct BumbleComponents: Sendable {
    public var python: String
    public var script: String

    static let install = "scripts/setup, or: python3 -m venv .venv && .venv/bin/pip install bumble==0.0.236"

    /// `BLUEPROOF_VENV`, else a `.venv` in the executable's folder, the working folder or one
    /// of their parents (as ``ComponentLocator`` finds Rootcanal); the script beside the
    /// sources, or `BLUEPROOF_BUMBLE_PEER`.
    public static func locate() -> Result<BumbleComponents, MissingComponent> {
        let environment = ProcessInfo.processInfo.environment
        let files = FileManager.default
        var venvs: [URL] = []
        if let venv = environment["BLUEPROOF_VENV"] { venvs.append(URL(fileURLWithPath: venv)) }
        let executable = URL(fileURLWithPath: (try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
            .deletingLastPathComponent()
        for start in [executable, URL(fileURLWithPath: files.currentDirectoryPath)] {
            var folder = start
            for _ in 0..<6 {
                venvs.append(folder.appendingPathComponent(".venv"))
                folder.deleteLastPathComponent()
            }
        }
        let script = environment["BLUEPROOF_BUMBLE_PEER"] ?? URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("IntegrationTests/Bumble/peer.py").path
        guard files.fileExists(atPath: script) else {
            return .failure(MissingComponent(message: "the Bumble peer script \(script) is missing"))
        }
        for venv in venvs {
            let python = venv.appendingPathComponent("bin/python").path
            let lib = venv.appendingPathComponent("lib")
            guard files.isExecutableFile(atPath: python),
                  let versions = try? files.contentsOfDirectory(atPath: lib.path) else { continue }
            for version in versions.sorted() where version.hasPrefix("python3") {
                let package = lib.appendingPathComponent("\(version)/site-packages/bumble/__init__.py").path
                if files.fileExists(atPath: package) { return .success(BumbleComponents(python: python, script: script)) }
            }
        }
        return .failure(MissingComponent(message: "Bumble is not installed in a .venv beside the project; install it with: \(install)"))
    }
}

extension RequiredComponent {
    /// Google Bumble in the project venv, and the peer script.
    public static let bumble = RequiredComponent(name: "bumble") { BumbleComponents.locate().map(\.python) }
}
