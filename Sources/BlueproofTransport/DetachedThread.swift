import Glibc

/// Runs `body` on a new detached POSIX thread (readers and acceptors block in `poll`, which
/// must not hold a Swift concurrency thread). Returns 0, or the `pthread_create` error code.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    let entry = Unmanaged.passRetained(ThreadEntry(body))
    var thread = pthread_t()
    let code = pthread_create(&thread, nil, { context in
        Unmanaged<ThreadEntry>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, entry.toOpaque())
    guard code == 0 else {
        entry.release()
        return code
    }
    pthread_detach(thread)
    return 0
}

private final class ThreadEntry: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
