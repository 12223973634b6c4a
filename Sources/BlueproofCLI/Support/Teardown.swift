import BlueproofBackend
import Dispatch
import Foundation

/// Makes sure controller processes end with the harness: on SIGINT and SIGTERM they are killed
/// and the tool exits with 128 + signal; on any exit() they are killed too. SIGKILL of the
/// harness is covered by the children's parent-death signal. Keep the value alive for as long
/// as the command runs (`withExtendedLifetime`).
final class Teardown {
    private var sources: [DispatchSourceSignal] = []

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
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
