import BlueproofAsync
import BlueproofHost
import Synchronization

/// Data bytes moved so far, shared by a transfer's loop and its watchdog.
final class ByteCounter: Sendable {
    private let value = Atomic<Int>(0)
    var current: Int { value.load(ordering: .relaxed) }
    func set(_ bytes: Int) { value.store(bytes, ordering: .relaxed) }
}

/// A value the tasks of one transfer share (its loop, its watchdogs, the code that reports).
final class Shared<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    init(_ value: Value) { state = Mutex(value) }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { state.withLock { body(&$0) } }
    var current: Value { state.withLock { $0 } }
}

/// Sends events to a role's stream.
typealias Emit = @Sendable (TransferEvent) -> Void

/// Runs a role's work as a stream of events that ends with ``TransferEvent/done(_:)`` or
/// ``TransferEvent/failed(_:)``. Dropping the stream cancels the work.
func eventStream(_ work: @escaping @Sendable (_ emit: @escaping Emit) async throws(TransferError) -> TransferSummary)
    -> AsyncStream<TransferEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: TransferEvent.self)
    let task = Task {
        do throws(TransferError) {
            let summary = try await work { continuation.yield($0) }
            continuation.yield(.done(summary))
        } catch {
            continuation.yield(.failed(error))
        }
        continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
}

/// Runs `operation` on `connection` until it returns; fails with
/// ``TransferError/disconnected(reason:bytes:)`` as soon as the connection ends, and with
/// ``TransferError/stalled(bytes:limit:)`` when `counter` does not move for `idle`.
func guarded<T: Sendable>(
    _ connection: LEConnection, on host: LEHost, counter: ByteCounter, idle: Duration?,
    clock: any Clock<Duration>, _ operation: @escaping @Sendable () async throws -> T
) async throws(TransferError) -> T {
    do {
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                guard let reason = await host.waitForDisconnection(connection) else { return nil }
                throw TransferError.disconnected(reason: reason, bytes: counter.current)
            }
            if let idle {
                group.addTask {
                    var last = counter.current
                    while true {
                        try await clock.sleep(for: idle)
                        let now = counter.current
                        if now == last { throw TransferError.stalled(bytes: now, limit: idle) }
                        last = now
                    }
                }
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    } catch {
        throw TransferError.from(error, connection: connection, bytes: counter.current)
    }
}

/// The first element of `stream` that `match` accepts, or nil when `limit` passes or the
/// stream ends first.
func first<Element: Sendable, T: Sendable>(
    of stream: AsyncStream<Element>, within limit: Duration, clock: any Clock<Duration>,
    _ match: @escaping @Sendable (Element) -> T?
) async -> T? {
    try? await withTimeout(limit, clock: clock, what: "the next event") {
        for await element in stream {
            if let value = match(element) { return value }
        }
        return nil
    }
}
