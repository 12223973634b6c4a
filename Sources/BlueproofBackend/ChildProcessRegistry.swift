import Foundation
import Synchronization

/// Every controller process the harness has started and not yet reaped, so that an exit,
/// an error or a signal can take them all down (``killAll()``).
public final class ChildProcessRegistry: Sendable {
    public static let shared = ChildProcessRegistry()
    private let pids = Mutex<Set<pid_t>>([])

    func add(_ pid: pid_t) { pids.withLock { _ = $0.insert(pid) } }
    func remove(_ pid: pid_t) { pids.withLock { _ = $0.remove(pid) } }

    public var live: Set<pid_t> { pids.withLock { $0 } }

    /// SIGKILLs the process group of every live child. Safe to call from an exit path.
    public func killAll() {
        for pid in live { kill(-pid, SIGKILL) }
    }
}
