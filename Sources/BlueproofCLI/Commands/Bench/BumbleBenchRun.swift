import BlueproofAsync
import BlueproofBackend
import BlueproofTransport
import CBlueproofSystem
import Foundation
import Synchronization

/// One run of Bumble's own benchmark (`bumble-bench`) on a backend's shared endpoint: a Bumble
/// peripheral sends `count` packets to a Bumble central, which writes an ACK back after the
/// last one; as GATT notifications of `packetSize` bytes with ATT_MTU 247, or (``Mode/l2cap``)
/// as a byte stream of 8192-byte packets on an L2CAP credit-based channel the central opens.
/// The speed is Bumble's: bytes sent over the time from the first packet queued to the ACK.
///
/// Both run `scripts/bumble-bench-gatt.py` (see there why not `bumble-bench` itself) as
/// ``ChildProcess``es, their logs in `folder`. Their milestone lines come on a pipe of their
/// own (descriptor 3), so the central starts once the peripheral says it waits for a
/// connection (it advertises by then), and the speed is read from the peripheral's ACK line.
struct BumbleBenchRun {
    static let packetSize = 244
    static let attMTU = 247

    /// What the bench sends over.
    enum Mode: Sendable {
        case gatt
        /// A credit-based channel on PSM 129 with these parameters on both sides.
        case l2cap(mtu: Int, mps: Int, credits: Int)

        /// Bytes per packet, and the payload Bumble counts per packet (its 2-byte length
        /// prefix on a stream is not counted).
        var packet: (size: Int, counted: Int) {
            switch self {
            case .gatt: (BumbleBenchRun.packetSize, BumbleBenchRun.packetSize)
            case .l2cap: (8192, 8190)
            }
        }

        func arguments(server: Bool) -> [String] {
            switch self {
            case .gatt: ["--mode", server ? "gatt-server" : "gatt-client"]
            case let .l2cap(mtu, mps, credits):
                ["--mode", server ? "l2cap-server" : "l2cap-client", "--l2cap-psm", "129", "--l2cap-mtu", "\(mtu)",
                 "--l2cap-mps", "\(mps)", "--l2cap-max-credits", "\(credits)"]
            }
        }
    }

    var mode: Mode = .gatt
    var components: ComponentLocator.BumbleBench
    /// Bumble's transport name for the backend's shared endpoint.
    var transport: String
    var folder: String
    var limit: Duration

    /// What one run measured.
    struct Result: Sendable {
        var bytes: Int
        var seconds: Double
        var bytesPerSecond: Double
        /// Sequence gaps the receiving central reported ("Unexpected packet"): notifications
        /// the controller lost.
        var gaps: Int
    }

    /// Bumble's name for `endpoint`: `unix:PATH`, or `tcp-client:HOST:PORT`.
    static func transport(for endpoint: TransportSpec?) throws(BenchError) -> String {
        switch endpoint {
        case let .unix(path)?: return "unix:\(path)"
        case let .tcp(host, port)?: return "tcp-client:\(host):\(port)"
        case let other?: throw .run("Bumble's bench cannot open \(other); use btvirt, rootcanal, unix: or tcp:")
        case nil: throw .run("this backend gives one controller only, so Bumble's bench cannot join it")
        }
    }

    /// Packets that carry at least `size` counted bytes.
    func packetCount(for size: Int) -> Int { (size + mode.packet.counted - 1) / mode.packet.counted }

    /// Runs the bench up to `attempts` times: btvirt can lose notifications to a slow reader
    /// (its writes do not check for a full socket), and a run that lost the last one never
    /// ends. So a run whose receiver reports a sequence gap is abandoned at once and run again
    /// on a fresh pair of Bumble nodes; the last attempt keeps a gap and reports it.
    func run(size: Int, attempts: Int = 3) async throws(BenchError) -> Result {
        for attempt in 1..<max(1, attempts) {
            if let result = try await once(size: size, index: attempt, abandonOnGap: true) { return result }
            Console.progress("  Bumble's receiver saw a sequence gap (the controller lost a notification); running it again")
        }
        guard let result = try await once(size: size, index: max(1, attempts), abandonOnGap: false) else {
            throw .run("Bumble's bench gave no result")
        }
        return result
    }

    /// One attempt; nil when `abandonOnGap` and the receiver reported a gap first.
    private func once(size: Int, index: Int, abandonOnGap: Bool) async throws(BenchError) -> Result? {
        let count = packetCount(for: size)
        let peripheral = try Peer.start(
            components, log: "\(folder)/bumble-\(index)-peripheral.log",
            arguments: mode.arguments(server: true) + ["--scenario", "send", "-s", "\(mode.packet.size)", "-c", "\(count)",
                                                       "peripheral", transport])
        defer { peripheral.kill() }
        _ = try await peripheral.line(containing: "Waiting for connection", within: .seconds(30))
        let central = try Peer.start(
            components, log: "\(folder)/bumble-\(index)-central.log",
            arguments: mode.arguments(server: false) + ["--scenario", "receive", "--att-mtu", "\(Self.attMTU)",
                                                        "central", transport])
        defer { central.kill() }
        let ack: String?
        if abandonOnGap {
            let (limit, gap) = (self.limit, "Unexpected packet")
            let first = await withTaskGroup(of: Swift.Result<String?, BenchError>.self) { group in
                group.addTask {
                    do throws(BenchError) { return .success(try await peripheral.line(containing: "Received ACK. Speed:", within: limit)) }
                    catch { return .failure(error) }
                }
                group.addTask {
                    // A gap, or nothing when the central ends without one (then the ACK decides).
                    _ = try? await central.line(containing: gap, within: limit)
                    return central.lines.contains { $0.contains(gap) } ? .success(nil) : .success("")
                }
                var outcome: Swift.Result<String?, BenchError> = .success("")
                for await result in group {
                    outcome = result
                    if case .success("") = result { continue }
                    break
                }
                group.cancelAll()
                return outcome
            }
            ack = try first.get()
        } else {
            ack = try await peripheral.line(containing: "Received ACK. Speed:", within: limit)
        }
        await peripheral.process.terminate()
        await central.process.terminate()
        guard let ack else { return nil }
        let gaps = central.lines.filter { $0.contains("Unexpected packet") }.count
        guard let result = Self.parse(ack, gaps: gaps) else {
            throw .run("cannot read Bumble's speed from \"\(ack)\"")
        }
        return result
    }

    /// `@@@ Received ACK. Speed: average=437760.8406 (999912 bytes in 2.28 seconds)`.
    static func parse(_ line: String, gaps: Int) -> Result? {
        let scanner = Scanner(string: line)
        _ = scanner.scanUpToString("average=")
        guard scanner.scanString("average=") != nil, let speed = scanner.scanDouble(),
              scanner.scanString("(") != nil, let bytes = scanner.scanInt(),
              scanner.scanString("bytes in") != nil, let seconds = scanner.scanDouble()
        else { return nil }
        return Result(bytes: bytes, seconds: seconds, bytesPerSecond: speed, gaps: gaps)
    }

    /// One `bumble-bench-gatt.py` process and the milestone lines it wrote to descriptor 3.
    final class Peer: Sendable {
        let process: ChildProcess
        let role: String
        private let stream: Lines

        static func start(_ components: ComponentLocator.BumbleBench, log: String,
                          arguments: [String]) throws(BenchError) -> Peer {
            var fds: [Int32] = [-1, -1]
            let piped = bp_pipe_cloexec(&fds)
            guard piped == 0 else { throw .run("cannot create a pipe: \(String(cString: strerror(-piped)))") }
            let process: ChildProcess
            do {
                process = try ChildProcess(
                    executable: components.python, arguments: ["-u", components.script] + arguments,
                    environment: ["BLUEPROOF_BENCH_FD": "3", "PYTHONUNBUFFERED": "1"],
                    logPath: log, passDescriptor: fds[1], ignoreSIGPIPE: false)
            } catch {
                close(fds[0])
                close(fds[1])
                throw .run("\(error)")
            }
            // The child holds its own copy: end of file now means the peer is gone.
            close(fds[1])
            return Peer(process: process, role: arguments.last(where: { !$0.contains(":") }) ?? "bumble", readEnd: fds[0])
        }

        private init(process: ChildProcess, role: String, readEnd: Int32) {
            self.process = process
            self.role = role
            stream = Lines(fd: readEnd)
        }

        /// Every line so far.
        var lines: [String] { stream.all }

        /// The first line containing `text`; throws with the peer's log tail when the peer
        /// ends first or `limit` passes.
        func line(containing text: String, within limit: Duration) async throws(BenchError) -> String {
            let found = try? await withTimeout(limit, what: "Bumble \(role)") { [stream] in
                await stream.first { $0.contains(text) }
            }
            if let found { return found }
            if Task.isCancelled { throw .run("stopped waiting for Bumble \(role)") }
            let exit = await process.exit(within: .seconds(1))
            let why = exit.map { "it \($0)" } ?? "nothing within \(limit)"
            throw .run("""
                Bumble's bench \(role) did not say "\(text)": \(why); its log (\(process.logPath)) ends:
                \(process.logTail(lines: 12))
                """)
        }

        func kill() {
            if process.exitStatus == nil { Glibc.kill(-process.pid, SIGKILL) }
        }
    }

    /// Lines read from a descriptor by a thread of their own, until end of file.
    final class Lines: Sendable {
        private let state = Mutex(State())

        private struct State {
            var lines: [String] = []
            var finished = false
            var waiters: [CheckedContinuation<Void, Never>] = []
        }

        init(fd: Int32) {
            let thread = Thread { [self] in
                var pending = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    pending += buffer[0..<count]
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        self.update { $0.lines.append(line) }
                    }
                }
                close(fd)
                self.update { $0.finished = true }
            }
            thread.name = "bumble-bench lines"
            thread.start()
        }

        var all: [String] { state.withLock { $0.lines } }

        private func update(_ change: (inout State) -> Void) {
            let waiters = state.withLock { state in
                change(&state)
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        /// The first line that matches, nil once the descriptor closed without one.
        func first(where match: (String) -> Bool) async -> String? {
            var seen = 0
            while !Task.isCancelled {
                let (lines, finished) = state.withLock { ($0.lines, $0.finished) }
                if let line = lines[seen...].first(where: match) { return line }
                if finished { return nil }
                seen = lines.count
                // Cancellation (a timeout) wakes every waiter; each looks at its own task.
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let now = state.withLock { state -> Bool in
                            if state.lines.count > seen || state.finished || Task.isCancelled { return true }
                            state.waiters.append(continuation)
                            return false
                        }
                        if now { continuation.resume() }
                    }
                } onCancel: {
                    update { _ in }
                }
            }
            return nil
        }
    }
}

/// Why a benchmark could not measure.
enum BenchError: Error, CustomStringConvertible {
    case run(String)
    var description: String {
        switch self {
        case let .run(message): message
        }
    }
}
