import BlueproofAsync
import Foundation
import Synchronization

/// A `blueproof` process that keeps running while a test talks to it: its standard input is a
/// pipe, and every line it writes (standard output and error) is kept, so a test can wait for
/// one, or for its exit, without polling.
final class LiveCLI: Sendable {
    private let process: Process
    private let input: Pipe
    /// Both streams' lines, interleaved as they came; it ends when both streams have.
    private let log = EventLog<String>()
    private let outputs = Mutex<[String]>([])
    private let errors = Mutex<[String]>([])
    private let openStreams = Mutex(2)
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
                // A last line without its newline.
                if !pending.isEmpty { record(String(decoding: pending, as: UTF8.self), isError: isError) }
                end()
            }
        }
    }

    /// Every line so far, both streams interleaved as they came.
    var lines: [String] { log.events }

    /// Standard output so far.
    var stdout: String { outputs.withLock { $0.joined(separator: "\n") } }

    /// Standard error so far.
    var stderr: String { errors.withLock { $0.joined(separator: "\n") } }

    /// Runs a program to its end without holding a thread of the test's pool (its output is
    /// read by threads of its own, its standard input closed); its status and both streams.
    static func run(_ executable: String, _ arguments: [String], within limit: Duration = .seconds(600)) async throws
        -> (status: Int32, stdout: String, stderr: String) {
        let cli = try LiveCLI(executable, arguments)
        cli.endInput()
        guard let status = await cli.exit(within: limit), await cli.log.waitForEnd(within: limit) else {
            cli.stop()
            throw TimeoutError(what: "\(executable) \(arguments.joined(separator: " ")) to end", limit: "\(limit)")
        }
        return (status, cli.stdout, cli.stderr)
    }

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
        await log.first(within: limit, where: matches)
    }

    /// Closes the process's standard input (end of file).
    func endInput() { try? input.fileHandleForWriting.close() }

    /// Writes `text` and a newline to the process's standard input.
    func type(_ text: String) {
        input.fileHandleForWriting.write(Data((text + "\n").utf8))
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() {
        if process.isRunning { process.interrupt() }
    }

    /// Kills the process (SIGKILL: no handler runs, nothing is said to its peers) and waits for it.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Ends the process (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    private func record(_ line: String, isError: Bool) {
        if isError { errors.withLock { $0.append(line) } } else { outputs.withLock { $0.append(line) } }
        log.record(line)
    }

    /// One output stream closed; the log ends with the second.
    private func end() {
        let open = openStreams.withLock { open -> Int in
            open -= 1
            return open
        }
        if open == 0 { log.end() }
    }
}
