import BlueproofSpark
import BlueproofTransmitter
import Foundation
import Synchronization

/// In-memory files for the core: a source tests can delete from, a sink that keeps what was
/// committed and what is still partial.
final class MemoryFiles: SparkFileSource, SparkFileSink {
    struct State {
        var sources: [String: [UInt8]] = [:]
        /// Paths still there that cannot be read (a folder in a file's place).
        var unreadable: Set<String> = []
        var partial: [UInt64: (name: String, bytes: [UInt8])] = [:]
        var committed: [String: [UInt8]] = [:]
        var next: UInt64 = 1
    }

    let state = Mutex(State())

    func put(_ bytes: [UInt8], at path: String) { state.withLock { $0.sources[path] = bytes } }
    func remove(_ path: String) { state.withLock { $0.sources[path] = nil } }
    /// The file at `path` stays but can no longer be read.
    func spoil(_ path: String) { state.withLock { _ = $0.unreadable.insert(path) } }
    var committed: [String: [UInt8]] { state.withLock { $0.committed } }
    var partialCount: Int { state.withLock { $0.partial.count } }

    func size(of path: String) throws(SparkFileFailure) -> UInt64 {
        guard let bytes = state.withLock({ $0.sources[path] }) else { throw SparkFileFailure(path: path, reason: "missing") }
        return UInt64(bytes.count)
    }

    func read(_ path: String, at offset: UInt64, count: Int) throws(SparkFileFailure) -> [UInt8] {
        guard let (bytes, unreadable) = state.withLock({ state in state.sources[path].map { ($0, state.unreadable.contains(path)) } }) else {
            throw SparkFileFailure(path: path, reason: "missing")
        }
        guard !unreadable else { throw SparkFileFailure(path: path, reason: "\(SparkFileFailure.readStep): a folder") }
        let start = min(Int(offset), bytes.count)
        return Array(bytes[start..<min(start + count, bytes.count)])
    }

    func begin(name: String) throws(SparkFileFailure) -> SparkSinkHandle {
        state.withLock { state in
            defer { state.next += 1 }
            state.partial[state.next] = (name, [])
            return SparkSinkHandle(state.next)
        }
    }

    func append(_ bytes: [UInt8], to handle: SparkSinkHandle) throws(SparkFileFailure) {
        state.withLock { $0.partial[handle.value]?.bytes.append(contentsOf: bytes) }
    }

    func commit(_ handle: SparkSinkHandle) throws(SparkFileFailure) -> String {
        state.withLock { state in
            let file = state.partial.removeValue(forKey: handle.value) ?? ("", [])
            state.committed["cache/\(file.name)"] = file.bytes
            return "cache/\(file.name)"
        }
    }

    func discard(_ handle: SparkSinkHandle) { _ = state.withLock { $0.partial.removeValue(forKey: handle.value) } }
}

/// Several cores joined by in-memory links: `pump` moves frames until none wait (or a budget
/// runs out), collecting each node's events.
final class SparkNet {
    static func key(_ reg: UInt64) -> [UInt8] { Array(repeating: UInt8(truncatingIfNeeded: reg), count: 32) }

    let clock = ManualTimeSource()
    var cores: [UInt64: SparkCore] = [:]
    var files: [UInt64: MemoryFiles] = [:]
    var events: [UInt64: [SparkEvent]] = [:]
    /// Frames as they crossed, for tests that tamper or count.
    var wire: [(from: UInt64, to: UInt64, bytes: [UInt8])] = []
    /// Applied to each frame before delivery; `nil` drops it.
    var tamper: ((UInt64, [UInt8]) -> [UInt8]?)?

    /// Adds a node; `knows` are the peers whose keys it holds.
    func add(_ reg: UInt64, knows: [UInt64] = [], setup: SparkAnswer = .automatic, acceptance: SparkAnswer = .application,
             concurrency: SparkConcurrency = .several(limit: 8), frameBytes: Int = 64, sink: (any SparkFileSink)? = nil,
             source: (any SparkFileSource)? = nil, defects: SparkDefects = []) {
        let memory = MemoryFiles()
        files[reg] = memory
        var core = SparkCore(configuration: SparkConfiguration(registrationID: reg, keyID: Self.key(reg), setup: setup, acceptance: acceptance,
                                                               concurrency: concurrency, offerTimeout: 10, frameBytes: frameBytes,
                                                               defects: defects),
                             clock: clock, source: source ?? memory, sink: sink ?? memory)
        for peer in knows { core.recordKey(Self.key(peer), for: peer) }
        cores[reg] = core
    }

    /// Runs `body` on a node's core, then collects its events.
    @discardableResult
    func on<T>(_ reg: UInt64, _ body: (inout SparkCore) throws -> T) rethrows -> T {
        defer { collect() }
        return try body(&cores[reg]!)
    }

    /// Writes `frames` as `sender` on its connection `id` (as the sender names it) straight into
    /// the peer's core, as a misbehaving peer would; `rewrite` changes each encoded frame first.
    func deliver(_ frames: [SparkFrame], on id: SparkConnectionID, from sender: UInt64, rewrite: ([UInt8]) -> [UInt8] = { $0 }) throws {
        for frame in frames {
            let bytes = rewrite(try SparkEnvelope(origin: id.outgoing ? .sender : .receiver, connection: id.number, frame: frame).encoded())
            on(id.peer) { $0.receive(bytes, from: sender) }
        }
    }

    /// Moves frames until none wait or `budget` frames moved; returns how many moved.
    @discardableResult
    func pump(budget: Int = .max) -> Int {
        var moved = 0
        var progress = true
        while progress && moved < budget {
            progress = false
            for from in cores.keys.sorted() {
                for to in cores[from]!.pendingPeers.sorted() where moved < budget {
                    guard let bytes = cores[from]!.nextFrame(for: to) else { continue }
                    moved += 1
                    progress = true
                    guard let delivered = tamper.map({ $0(from, bytes) }) ?? bytes else { continue }
                    wire.append((from, to, delivered))
                    cores[to]?.receive(delivered, from: from)
                }
            }
        }
        collect()
        return moved
    }

    /// Flips a bit in the first byte of every chunk the caller of `connection` sends.
    func corruptChunks(of connection: SparkConnectionID) {
        tamper = { _, bytes in
            guard case .chunk(let transfer, var data)? = (try? SparkEnvelope.decode(bytes))?.frame else { return bytes }
            data[0] ^= 1
            return try? SparkEnvelope(origin: .sender, connection: connection.number, frame: .chunk(transfer: transfer, bytes: data)).encoded()
        }
    }

    func collect() {
        for reg in cores.keys { events[reg, default: []] += cores[reg]!.takeEvents() }
    }

    /// Takes a node's collected events.
    func take(_ reg: UInt64) -> [SparkEvent] {
        defer { events[reg] = [] }
        return events[reg] ?? []
    }

    /// A connection from `caller` to `callee`, accepted by the callee's application, events cleared.
    func connect(_ caller: UInt64, _ callee: UInt64, callbacks: Bool = true) throws -> (SparkConnectionID, SparkConnectionID) {
        let outgoing = try on(caller) { try $0.startDataConnection(to: callee) }
        pump()
        let incoming = SparkConnectionID(peer: caller, number: outgoing.number, outgoing: false)
        if cores[callee]!.state(of: incoming) == .available { try on(callee) { try $0.accept(incoming) } }
        pump()
        if callbacks {
            try on(caller) { try $0.setReceiveCallbacks(outgoing, data: true, file: true) }
            try on(callee) { try $0.setReceiveCallbacks(incoming, data: true, file: true) }
        }
        _ = take(caller)
        _ = take(callee)
        return (outgoing, incoming)
    }
}
