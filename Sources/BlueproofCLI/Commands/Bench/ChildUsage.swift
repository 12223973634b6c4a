import CBlueproofSystem
import Foundation

/// One child process run to its end, standard output and error to /dev/null, with the time it
/// took and the peak memory `wait4(2)` reports for it: the child's own figure, nothing of ours.
struct ChildUsage: Encodable, Sendable {
    var seconds: Double
    /// Peak resident set size (`ru_maxrss`), bytes.
    var peakRSSBytes: Int
    /// Exit status, or minus the signal that killed it.
    var status: Int32

    /// Runs `executable` with `arguments` and waits for it; blocks the calling thread.
    static func run(_ executable: String, _ arguments: [String]) throws(BenchError) -> ChildUsage {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = argv.withUnsafeBufferPointer { argvBuffer in
            guard let base = argvBuffer.baseAddress else { return EINVAL }
            return posix_spawn(&pid, executable, &actions, nil, base, environ)
        }
        guard spawned == 0 else {
            throw .run("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw .run("cannot wait for \(executable): \(String(cString: strerror(errno)))") }
        }
        let elapsed = ContinuousClock.now - start
        return ChildUsage(seconds: BenchMeshCommand.seconds(elapsed),
                          peakRSSBytes: usage.ru_maxrss * 1024,  // Linux counts KiB
                          status: bp_wait_status_code(status))
    }
}
