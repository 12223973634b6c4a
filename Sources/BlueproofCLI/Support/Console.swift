import Foundation
import Glibc
import Synchronization

/// The tool's output: results on standard output, progress and diagnostics on standard error,
/// each written straight to its descriptor (no buffering, so the two never reorder).
///
/// A reader that goes away (`blueproof run --list | head -1`) ends the output, never the tool
/// with a trap: writes give EPIPE, since the process ignores SIGPIPE for its sockets. What
/// happens then is ``whenOutputCloses``: most commands exit at once with 141, the status of a
/// command killed by SIGPIPE; `run` keeps going silently so its reports are still written.
enum Console {
    enum ClosedOutput: Sendable {
        /// Exit with 128 + SIGPIPE, as a pipe-closed command does.
        case exit
        /// Drop further output and carry on.
        case keepRunning
    }

    private static let closedOutput = Mutex(ClosedOutput.exit)
    private static let outputGone = Atomic(false)
    /// How much a caller of ``lines(utf8:)`` gathers before it writes: 64 KiB.
    static let bufferBytes = 64 * 1024

    /// What a closed standard output does from now on.
    static var whenOutputCloses: ClosedOutput {
        get { closedOutput.withLock { $0 } }
        set { closedOutput.withLock { $0 = newValue } }
    }

    /// Whether standard output's reader has gone.
    static var outputClosed: Bool { outputGone.load(ordering: .relaxed) }

    static func progress(_ text: String) { diagnostic("• \(text)\n") }

    static func error(_ text: String) { diagnostic("blueproof: \(text)\n") }

    /// Text on standard error as it is; a closed standard error is ignored.
    static func diagnostic(_ text: String) { _ = write(Array(text.utf8), to: STDERR_FILENO) }

    /// A line on standard output, written at once so a pipe sees it live.
    static func line(_ text: String) { output(Array((text + "\n").utf8)) }

    /// Lines already made into UTF-8, each ending in a newline, written at once: for a caller
    /// that gathers ``bufferBytes`` of them (`inspect`), one write per 64 KiB instead of one
    /// per line.
    static func lines(utf8 bytes: [UInt8]) {
        if !bytes.isEmpty { output(bytes) }
    }

    private static func output(_ bytes: [UInt8]) {
        guard !outputClosed else { return }
        guard write(bytes, to: STDOUT_FILENO) else {
            outputGone.store(true, ordering: .relaxed)
            if whenOutputCloses == .exit { Glibc.exit(128 + SIGPIPE) }
            return
        }
    }

    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// One compact JSON object on its own line, for streaming output.
    static func jsonLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        line(String(decoding: data, as: UTF8.self))
    }

    /// Writes all of `bytes` through EINTR and partial writes; false when the descriptor
    /// refuses (EPIPE: the reader left).
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
