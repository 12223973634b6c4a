import BlueproofAsync
import Foundation
import Synchronization

/// A `blueproof` process that keeps running while a test talks to it: its standard input is a
/// pipe, and every line it writes (standard output and error) is kept, so a test can wait for
/// one, or for its exit, without polling.
final class LiveCLI: Sendable {
    private struct State {
        var lines: [String] = []
        /// The standard-error lines among `lines`.
        var errors: [String] = []
        var waiters: [(matches: @Sendable (String) -> Bool, continuation: CheckedContinuation<String?, Never>)] = []
        /// Output streams still open (standard output and error).
        var open = 2
        var ended: Bool { open == 0 }
    }

    private let process: Process
    private let input: Pipe
    private let state = Mutex(State())
    private let exited: AsyncStream<Int32>

    init(_ executable: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        exited = stream
        process.terminationHandler = { process in
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
        try process.run()
        for (pipe, isError) in [(output, false), (errors, true)] {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        record(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), isError: isError)
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                }
                end()
            }
        }
    }

    /// Every line so far, both streams interleaved as they came.
    var lines: [String] { state.withLock { $0.lines } }

    /// Standard error so far.
    var stderr: String { state.withLock { $0.errors.joined(separator: "\n") } }

    /// The exit status, nil when the process has not ended within `limit`.
    func exit(within limit: Duration) async -> Int32? {
        let exited = self.exited
        return try? await withTimeout(limit, what: "the CLI to exit") {
            for await status in exited { return status }
            return -1
        }
    }

    /// The first line (already written or still to come) that `matches`; nil if none comes
    /// within `limit` or the process's output ends first.
    func line(within limit: Duration, where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            expireWaiters()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let found: String?? = state.withLock { state in
                if let line = state.lines.first(where: matches) { return .some(line) }
                if state.ended { return .some(nil) }
                state.waiters.append((matches, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Writes `text` and a newline to the process's standard input.
    func type(_ text: String) {
        input.fileHandleForWriting.write(Data((text + "\n").utf8))
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() {
        if process.isRunning { process.interrupt() }
    }

    /// Ends the process (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    private func record(_ line: String, isError: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<String?, Never>] in
            state.lines.append(line)
            if isError { state.errors.append(line) }
            var ready: [CheckedContinuation<String?, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.matches(line) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: line) }
    }

    private func end() {
        let waiting = state.withLock { state -> [CheckedContinuation<String?, Never>] in
            state.open -= 1
            guard state.ended else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    /// A deadline passed: every waiter gives up (each test waits for one line at a time).
    private func expireWaiters() {
        let waiting = state.withLock { state -> [CheckedContinuation<String?, Never>] in
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }
}
