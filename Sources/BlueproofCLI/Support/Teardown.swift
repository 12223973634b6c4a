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

    init() {
        // A peer closing a socket must give EPIPE, not kill the harness.
        signal(SIGPIPE, SIG_IGN)
        atexit { ChildProcessRegistry.shared.killAll() }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                Console.diagnostic("\nblueproof: stopped by signal \(signalNumber); controllers shut down\n")
                ChildProcessRegistry.shared.killAll()
                for folder in Teardown.folders.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Removes `folder` too if SIGINT or SIGTERM stops the tool (after the controllers).
    func removeOnSignal(_ folder: String) { Self.folders.withLock { $0.append(folder) } }
}
