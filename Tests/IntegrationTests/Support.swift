import BlueproofBackend
import BlueproofCapture
import BlueproofHost
import Foundation
import BlueproofTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A fresh, short folder under the temporary folder (unix socket paths are limited to 107
/// bytes, and btvirt's socket lives below it), removed by `cleanUp()`.
struct WorkFolder {
    let path: String

    init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("bp-it-\(label)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the folder, unless BLUEPROOF_KEEP_TEST_FILES=1 asks to keep it for a post-mortem.
    func cleanUp() {
        guard ProcessInfo.processInfo.environment["BLUEPROOF_KEEP_TEST_FILES"] != "1" else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Starts `spec` in `folder`, runs `body`, and shuts the backend down whatever happens.
func withBackend<T: Sendable>(
    _ spec: BackendSpec, in folder: String,
    _ body: (any ControllerBackend) async throws -> T
) async throws -> T {
    let backend = try await startBackend(spec, workDirectory: folder)
    do {
        let result = try await body(backend)
        await backend.shutdown()
        return result
    } catch {
        await backend.shutdown()
        throw error
    }
}

/// The pid a backend reports in its `backend` fact ("…, pid 1234").
func processID(of backend: any ControllerBackend) -> pid_t? {
    guard let fact = backend.facts.first(where: { $0.name == "backend" }),
          let match = fact.value.firstMatch(of: #/pid (\d+)/#) else { return nil }
    return pid_t(match.1)
}

func fact(_ name: String, of backend: any ControllerBackend) -> String? {
    backend.facts.first { $0.name == name }?.value
}

/// Checks a capture written through `PcapWriter`: it reads back with `expectedCount` records,
/// uncut, both directions present, and Wireshark decodes as many frames, none malformed.
@discardableResult
func checkCapture(_ path: String, expectedCount: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> CaptureFile {
    let file = try CaptureReader.read(path: path)
    #expect(file.linkType == 201, sourceLocation: sourceLocation)
    #expect(file.records.count == expectedCount, "\(path)", sourceLocation: sourceLocation)
    #expect(file.truncated == nil, "\(path): \(String(describing: file.truncated))", sourceLocation: sourceLocation)
    #expect(file.skipped == 0, sourceLocation: sourceLocation)
    #expect(file.records.contains { $0.direction == .sent }, "\(path): nothing sent", sourceLocation: sourceLocation)
    #expect(file.records.contains { $0.direction == .received }, "\(path): nothing received", sourceLocation: sourceLocation)

    let tshark = try RequiredComponent.require(.tshark)[0]
    #expect(try frameNumbers(tshark, path).count == file.records.count, "tshark frames of \(path)",
            sourceLocation: sourceLocation)
    #expect(try malformedFrames(tshark, path) == [], "malformed frames in \(path)", sourceLocation: sourceLocation)
    return file
}


/// A report as JSON, for failure messages.
func json(_ report: ProbeReport) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "\(report)"
}

// MARK: - Waiting on processes that are not our children

/// `pidfd_open(2)`: a descriptor that becomes readable when process `pid` ends. Looked up at
/// run time (glibc 2.36 has the wrapper; the raw system call number 434 otherwise).
func pidfdOpen(_ pid: pid_t) -> Int32 {
    typealias Wrapper = @convention(c) (pid_t, UInt32) -> Int32
    typealias RawSyscall = @convention(c) (Int, pid_t, UInt32) -> Int
    guard let process = dlopen(nil, RTLD_NOW) else {
        errno = ENOSYS
        return -1
    }
    defer { dlclose(process) }
    if let symbol = dlsym(process, "pidfd_open") {
        return unsafeBitCast(symbol, to: Wrapper.self)(pid, 0)
    }
    guard let symbol = dlsym(process, "syscall") else {
        errno = ENOSYS
        return -1
    }
    return Int32(unsafeBitCast(symbol, to: RawSyscall.self)(434, pid, 0))
}

/// Waits, at most `limit`, until every process behind `pidfds` has ended; returns the indices
/// of those still running. Blocks in poll(2) on a thread of its own, never on the test's.
func waitForProcessEnds(_ pidfds: [Int32], within limit: Duration) async -> [Int] {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            let deadline = ContinuousClock.now + limit
            var pending = Array(pidfds.indices)
            while !pending.isEmpty {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                var fds = pending.map { pollfd(fd: pidfds[$0], events: Int16(POLLIN), revents: 0) }
                let ready = poll(&fds, nfds_t(fds.count), Int32(left.components.seconds * 1000
                    + left.components.attoseconds / 1_000_000_000_000_000 + 1))
                if ready < 0 && errno != EINTR { break }
                pending = zip(pending, fds).filter { $0.1.revents == 0 }.map(\.0)
            }
            continuation.resume(returning: pending)
        }
        thread.start()
    }
}

/// Reads `fd` until a line starting with `prefix` arrives, end of file, or `limit`; returns
/// that line, or nil. Blocks in poll(2) on a thread of its own.
func readLine(from fd: Int32, startingWith prefix: String, within limit: Duration) async -> String? {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            let deadline = ContinuousClock.now + limit
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 1024)
            var found: String?
            reading: while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                var one = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&one, 1, Int32(left.components.seconds * 1000
                    + left.components.attoseconds / 1_000_000_000_000_000 + 1))
                if ready < 0 && errno == EINTR { continue }
                if ready <= 0 { break }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if line.hasPrefix(prefix) {
                        found = line
                        break reading
                    }
                }
            }
            continuation.resume(returning: found)
        }
        thread.start()
    }
}

/// Runs `body` for each of `items`, at most `width` at once, and returns when all are done. An
/// error thrown for one item is recorded as an issue naming it; the others go on. For runs that
/// spend their time waiting on their own controllers and timers, not on the CPU, so that a
/// serialized suite need not wait for them one after another.
func forEach<T: Sendable>(_ items: [T], atMost width: Int, _ body: @escaping @Sendable (T) async throws -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for (index, item) in items.enumerated() {
            if index >= width { await group.next() }
            group.addTask {
                do { try await body(item) } catch { Issue.record(error, "\(item)") }
            }
        }
    }
}
