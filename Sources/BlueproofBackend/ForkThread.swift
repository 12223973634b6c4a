import Dispatch
import Foundation
import Synchronization

/// The one thread every controller process is forked from.
///
/// PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, not the process
/// (prctl(2)), and the Swift concurrency pool may retire idle threads: a child forked there
/// could be killed mid-run. This thread is started once and never exits, so the parent-death
/// signal fires exactly when the harness dies.
final class ForkThread: Sendable {
    static let shared = ForkThread()
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        // The singleton is never released, so the thread holding it is no leak.
        let thread = Thread { [self] in
            while true {
                wake.wait()
                let batch = self.jobs.withLock { jobs in
                    defer { jobs.removeAll() }
                    return jobs
                }
                for job in batch { job() }
            }
        }
        thread.name = "blueproof fork"
        thread.start()
    }

    /// Runs `work` on the fork thread and returns its result.
    func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        jobs.withLock { $0.append { result.withLock { $0 = work() }; done.signal() } }
        wake.signal()
        done.wait()
        return result.withLock { $0! }
    }
}
