import BlueproofHost

/// Runs `work` (a loop that prints until its stream ends or it is cancelled) for `seconds`, or
/// until the process is interrupted when `seconds` is 0, and returns what it counted.
func runFor(seconds: Double, _ work: @escaping @Sendable () async -> Int) async -> Int {
    await withTaskGroup(of: Int?.self) { group in
        group.addTask { await work() }
        if seconds > 0 {
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
        }
        var count = 0
        for await result in group {
            if let result { count = result }
            group.cancelAll()
        }
        return count
    }
}

extension ControllerSession {
    /// ``open(_:count:radio:)`` with one started host, printing how others join the backend.
    static func openOneHost(_ options: ControllerOptions) async throws -> (ControllerSession, LEHost) {
        let session = try await open(options, count: 1)
        let host = try await session.startHosts()[0]
        if let hint = session.joinHint { Console.progress(hint) }
        return (session, host)
    }
}
