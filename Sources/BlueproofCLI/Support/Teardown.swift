import BlueproofBackend
import Dispatch
import Foundation
import Synchronization

/// Makes sure controller processes end with the harness: on SIGINT and SIGTERM they are killed
/// and the tool exits with 128 + signal; on any exit() they are killed too. SIGKILL of the
/// harness is covered by the children's parent-death signal. Keep the value alive for as long
/// as the command runs (`withExtendedLifetime`).
final class Teardown {
    private var sources: [DispatchSourceSignal] = []
    /// Folders removed when a signal stops the tool (a run's work folder).
    private static let folders = Mutex<[String]>([])
    /// Work done before a signal's exit (a chat leaving its peers), each bounded by
    /// ``beforeExitLimit``.
    private static let farewells = Mutex<[@Sendable () async -> Void]>([])
    /// How long a signal waits for the work of ``beforeExit(_:)`` before exiting anyway.
    static let beforeExitLimit: DispatchTimeInterval = .seconds(3)

    init() {
        // A peer closing a socket must give EPIPE, not kill the harness.
        signal(SIGPIPE, SIG_IGN)
        atexit { ChildProcessRegistry.shared.killAll() }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                Teardown.runFarewells()
                Console.diagnostic("\nblueproof: stopped by signal \(signalNumber); controllers shut down\n")
                ChildProcessRegistry.shared.killAll()
                for folder in Teardown.folders.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs `work` when SIGINT or SIGTERM stops the tool, before the controllers are shut
    /// down; the exit waits for it at most ``beforeExitLimit``.
    func beforeExit(_ work: @escaping @Sendable () async -> Void) { Self.farewells.withLock { $0.append(work) } }

    private static func runFarewells() {
        let work = farewells.withLock { $0 }
        guard !work.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            for item in work { await item() }
            done.signal()
        }
        if done.wait(timeout: .now() + beforeExitLimit) == .timedOut {
            Console.diagnostic("\nblueproof: leaving took longer than the limit; exiting anyway\n")
        }
    }

    /// Removes `folder` too if SIGINT or SIGTERM stops the tool (after the controllers).
    func removeOnSignal(_ folder: String) { Self.folders.withLock { $0.append(folder) } }
}
