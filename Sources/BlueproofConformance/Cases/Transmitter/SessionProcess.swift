import BlueproofControl
import BlueproofTransmitter
import BlueproofTransport
import Foundation
import Synchronization

/// `blueproof dut --no-radio` on a session directory: the reference transmitter in another
/// process sharing that session, driven through the control protocol
/// (docs/control-protocol.md). Used by BFT/KEY/BV-02 to compare what two processes of one
/// session report.
final class SessionProcess: Sendable {
    private let process: Process
    let client: ControlClient

    private init(process: Process, client: ControlClient) {
        self.process = process
        self.client = client
    }

    /// Starts `executable dut --no-radio --session directory`, with `defects`, and connects to
    /// it once it says where it listens (within `timeout`).
    static func launch(_ executable: URL, session directory: URL, defects: Set<Defect>, timeout: Duration) async throws -> SessionProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["dut", "--no-radio", "--session", directory.path, "--listen", "tcp:127.0.0.1:0"]
            + defects.map(\.rawValue).sorted().flatMap { ["--defect", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw TransmitterUnavailable("cannot start \(executable.path): \(error)")
        }
        let serving = await Self.firstLine(of: output.fileHandleForReading, within: timeout) {
            $0.hasPrefix("serving the reference transmitter on ")
        }
        guard let serving, let word = serving.split(separator: " ").first(where: { $0.hasPrefix("tcp:") }),
              let address = try? TransportSpec(parsing: String(word)) else {
            process.terminate()
            process.waitUntilExit()
            throw TransmitterUnavailable("\(executable.lastPathComponent) dut did not say where it listens within \(timeout)")
        }
        do {
            return SessionProcess(process: process, client: try await ControlClient.connect(to: address, timeout: timeout))
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw TransmitterUnavailable("the second process at \(address) does not answer: \(error)")
        }
    }

    /// Stops the transmitter, closes the channel and ends the process.
    func end() async {
        await client.stop()
        await client.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The first line of `handle` that `matches`, read on a thread of its own (the pipe blocks);
    /// nil when the output ends or `timeout` passes first. The rest of the output is drained.
    private static func firstLine(of handle: FileHandle, within timeout: Duration,
                                  where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        let answer = Mutex<CheckedContinuation<String?, Never>?>(nil)
        let resume: @Sendable (String?) -> Void = { line in
            answer.withLock { continuation in
                continuation?.resume(returning: line)
                continuation = nil
            }
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            answer.withLock { $0 = continuation }
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if matches(line) { resume(line) }
                    }
                }
                resume(nil)
            }
            Task {
                try? await Task.sleep(for: timeout)
                resume(nil)
            }
        }
    }
}
