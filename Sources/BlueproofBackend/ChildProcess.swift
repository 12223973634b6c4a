import BlueproofTransport
import BlueproofAsync
import CBlueproofSystem
import Foundation
import Synchronization

/// How a child process ended.
public enum ChildExit: Hashable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)
    case waitFailed(Int32)

    public var description: String {
        switch self {
        case let .exited(code): "exited with status \(code)"
        case let .signalled(signal): "was killed by signal \(signal)"
        case let .waitFailed(error): "could not be waited for (\(errnoText(error)))"
        }
    }
}

/// A controller process started by the harness (btvirt, Rootcanal). It runs in its own process
/// group with SIGKILL as its parent-death signal, so it cannot outlive the harness; its output
/// goes to a log file. Every live child is listed in ``ChildProcessRegistry``.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let program: String
    public let logPath: String
    private let exit = OneShot<ChildExit>()

    /// Starts `executable` with `arguments`. `environment` is added to the harness's own;
    /// `passDescriptor` becomes descriptor 3 in the child.
    public init(
        executable: String,
        arguments: [String],
        environment: [String: String],
        logPath: String,
        passDescriptor: Int32? = nil,
        ignoreSIGPIPE: Bool
    ) throws(BackendError) {
        program = URL(fileURLWithPath: executable).lastPathComponent
        self.logPath = logPath
        let logFD = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard logFD >= 0 else {
            throw .spawnFailed(program: program, reason: "cannot create log \(logPath): \(errnoText(errno))")
        }
        defer { Glibc.close(logFD) }

        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        let argv = [executable] + arguments
        let envp = env.map { "\($0.key)=\($0.value)" }
        let passFD = passDescriptor ?? -1
        let spawned = ForkThread.shared.perform {
            withCStringArray(argv) { argvPointer in
                withCStringArray(envp) { envPointer in
                    bp_spawn(executable, argvPointer, envPointer, logFD, passFD, ignoreSIGPIPE ? 1 : 0)
                }
            }
        }
        guard spawned > 0 else {
            throw .spawnFailed(program: program, reason: errnoText(-spawned))
        }
        pid = spawned
        ChildProcessRegistry.shared.add(pid)
        let exit = self.exit
        let thread = Thread { [pid] in
            let status = bp_wait_child(pid)
            ChildProcessRegistry.shared.remove(pid)
            if status < 0 {
                exit.resolve(.waitFailed(-status))
            } else {
                let code = bp_wait_status_code(status)
                exit.resolve(code >= 0 ? .exited(code) : .signalled(-code))
            }
        }
        thread.name = "wait \(program) \(pid)"
        thread.start()
    }

    /// The exit, once it happened.
    public var exitStatus: ChildExit? { exit.current }

    /// Waits for the process to end; nil if the waiting task is cancelled.
    public func waitForExit() async -> ChildExit? { await exit.wait() }

    /// The exit, waiting at most `limit` for it: for a process whose socket or pipe just
    /// closed, which the waiter thread reaps moments later.
    public func exit(within limit: Duration) async -> ChildExit? {
        if let done = exit.current { return done }
        return try? await withTimeout(limit, what: "\(program) to exit") { await self.exit.wait() }
    }

    /// Ends the process group: SIGTERM, then SIGKILL if it has not exited after `grace`.
    @discardableResult
    public func terminate(grace: Duration = .seconds(2)) async -> ChildExit? {
        if let done = exit.current { return done }
        kill(-pid, SIGTERM)
        if let done = await exit(within: grace) { return done }
        kill(-pid, SIGKILL)
        return await exit.wait()
    }

    /// The last `lines` lines of the process's log, for error messages.
    public func logTail(lines: Int = 15) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
