/// One body at a time, across suites and test targets: for tests of process-wide state that
/// Swift Testing would otherwise run in parallel (`.serialized` orders one suite only).
public actor ExclusiveGate {
    /// `TransmitterLog.level` is process-wide ("Log levels"): tests that set it pass here.
    public static let transmitterLogLevel = ExclusiveGate()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// Runs `body` once no other body of this gate runs.
    public func exclusive<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let value = try await body()
            release()
            return value
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the gate to the next waiter, who then holds it.
    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
