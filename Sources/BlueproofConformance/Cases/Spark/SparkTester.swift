import BlueproofAsync
import BlueproofHost
import BlueproofSpark
import BlueproofTransmitter
import BlueproofWire
import Foundation
import Synchronization

/// The tester side of a Spark case: the reference core (never a variant) on one of the case's
/// nodes, advertising and listening for the subject's Spark channel, driven directly.
final class SparkTester: Sendable {
    let registrationID: UInt64
    let keyID: [UInt8]
    let host: LEHost
    let node: SparkChannelNode
    let events = SparkEventLog()
    let cacheFolder: String
    let filesFolder: String
    /// The LE connection between the subject and this tester, once made (by either).
    private let connection = HeldConnection()
    private let tasks: [Task<Void, Never>]

    /// A tester with `keyID` (a fresh random one when nil) under `registrationID`.
    init(host: LEHost, registrationID: UInt64, keyID: [UInt8]? = nil, folder: String) async throws {
        self.host = host
        self.registrationID = registrationID
        self.keyID = keyID ?? SparkNodeFolders.randomKeyID()
        let folders = try SparkNodeFolders(root: folder)
        (cacheFolder, filesFolder) = (folders.cache, folders.files)
        let configuration = SparkConfiguration(registrationID: registrationID, keyID: self.keyID, setup: .automatic, acceptance: .application)
        node = SparkChannelNode(host: host, core: SparkCore(configuration: configuration, clock: SystemTimeSource(),
                                                            source: AlteredOnResend(), sink: CacheFolderSink(directory: cacheFolder)))
        let (log, stream, incoming, held) = (events, node.events, await host.incomingConnections(), connection)
        tasks = [
            Task { for await event in stream { log.append(event) } },
            Task {
                for await made in incoming {
                    held.value.withLock { $0 = made }
                    break
                }
            },
        ]
        await node.listen()
        let name = Array("bp-spark-\(registrationID & 0xFF)".utf8)
        try await host.startAdvertising(LEAdvertisingParameters(data: [2, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name))
    }

    /// Runs `body` on the tester's core. A refusal of the tester's own core is an unmet
    /// precondition (the case cannot go on), not the subject refusing; a case that reads the
    /// refusal as the subject's doing calls `node.perform` itself.
    func perform<T: Sendable>(_ body: @Sendable (inout SparkCore) throws -> T) async rethrows -> T {
        do { return try await node.perform(body) } catch let refusal as SparkError {
            throw StageFailure(.tester, "tester \(String(registrationID, radix: 16))'s core refused: \(refusal)")
        }
    }

    /// Writes a file to send from the tester; a name containing `altered` is read back with its
    /// first byte changed after the core hashed it (a sender whose bytes disagree with the
    /// header's SHA-256).
    func placeFile(_ bytes: [UInt8], named name: String) throws -> String {
        let path = "\(filesFolder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `frames` for the tester's connection `id` as they are, frames its own core never
    /// sends (docs/spark-wire.md, "Exchange" 4), after what its core queued; `rewrite` changes
    /// each encoded frame first, for what the encoder refuses to write. A write that fails, or
    /// that finds no credit within `SparkStage.eventTimeout`, is an unmet precondition.
    func write(_ frames: [SparkFrame], on id: SparkConnectionID, rewrite: ([UInt8]) -> [UInt8] = { $0 }) async throws {
        let kinds = frames.map(\.kind), tester = String(registrationID, radix: 16), limit = SparkStage.eventTimeout
        do {
            let origin: SparkOrigin = id.outgoing ? .sender : .receiver
            let sdus = try frames.map { try rewrite(SparkEnvelope(origin: origin, connection: id.number, frame: $0).encoded()) }
            let (node, peer) = (node, id.peer)
            try await withTimeout(limit, what: "tester \(tester) writing its frames \(kinds)") {
                for sdu in sdus { try await node.sendRaw(sdu, to: peer) }
            }
        } catch is TimeoutError {
            throw StageFailure(.tester, "tester \(tester) could not write its frames \(kinds) within \(limit): each waits for what its core queued first and for a credit from the subject")
        } catch {
            throw StageFailure(.tester, "tester \(tester) could not write its frames \(kinds): \(error)")
        }
    }

    /// `frame` with its last `count` bytes replaced by `tail` and the header's body length (offset
    /// 7, docs/spark-wire.md "Header") made to agree: fields the encoder refuses to write.
    static func replacingTail(of frame: [UInt8], dropping count: Int, with tail: [UInt8]) -> [UInt8] {
        var frame = Array(frame.dropLast(count)) + tail
        let body = frame.count - SparkEnvelope.headerBytes
        (frame[7], frame[8]) = (UInt8(truncatingIfNeeded: body >> 8), UInt8(truncatingIfNeeded: body))
        return frame
    }

    /// Connects to the subject at `address` and opens the Spark channel, as a peer that found
    /// a listener does; returns the registration id the subject's hello names. Errors are the
    /// host's and the node's own (`LEHostError`; `channelRefused` when no hello came).
    func link(to address: BDAddress) async throws -> UInt64 {
        let held = connection
        return try await node.connectAndOpen(to: address) { made in held.value.withLock { $0 = made } }
    }

    /// What the subject did with a channel that opened with no `hello`.
    enum RawChannel: Sendable {
        /// It refused the channel, or closed it at once with nothing said on it.
        case refused(String)
        /// It closed the channel this long after the tester asked for it.
        case closed(after: Duration)
        /// It still held the channel open after the limit.
        case kept
        /// It never answered the request for the channel.
        case unanswered(String)
    }

    /// How soon a channel closed with nothing said on it counts as refused: a stack that cannot
    /// refuse a channel (a platform's socket API) accepts and closes it.
    static let closedAtOnce: Duration = .seconds(1)

    /// Opens a channel at the Spark SPSM on the LE connection the subject and this tester share,
    /// writes `first` on it (nothing when nil), never a `hello`, and waits up to `limit` for
    /// the subject to close it. The time runs from the request, before the subject could
    /// have started any timer of its own.
    func rawChannel(sending first: [UInt8]?, limit: Duration) async throws -> RawChannel {
        guard let made = connection.value.withLock({ $0 }) else { throw StageFailure(.tester, "the subject's LE connection to the tester was never seen") }
        let clock = ContinuousClock(), start = clock.now
        let channel: L2CAPChannel
        do { channel = try await SparkChannelNode.openChannel(host, on: made) } catch let error as LEHostError {
            if case .channelRefused = error { return .refused("\(error)") }
            return .unanswered("\(error)")
        }
        let sdus = await host.incomingSDUs(on: channel)
        // A send that fails finds the channel closed already: its end is what is judged.
        if let first { try? await host.send(first, on: channel) }
        // The subject's own hello (it listens) may come first: only the channel's end counts.
        let heard: Int? = try? await withTimeout(max(limit - start.duration(to: clock.now), .zero), what: "the subject closing a channel with no hello") {
            var count = 0
            for await _ in sdus { count += 1 }
            return count
        }
        guard let heard else {
            await host.close(channel)
            return .kept
        }
        let took = start.duration(to: clock.now)
        return heard == 0 && took < Self.closedAtOnce ? .refused("closed after \(took) with nothing said on it") : .closed(after: took)
    }

    /// Drops the LE link between the subject and this tester.
    func dropLink() async throws {
        guard let made = connection.value.withLock({ $0 }) else { throw StageFailure(.tester, "the subject's LE connection to the tester was never seen") }
        try await host.disconnect(made)
    }

    func stop() {
        for task in tasks { task.cancel() }
    }
}

/// The LE connection a tester was given, once given.
final class HeldConnection: Sendable {
    let value = Mutex<LEConnection?>(nil)
}

/// Reads files from disk; a path containing `altered` gets its first byte changed on every read
/// at offset 0 after the first (the core hashes the file first, then reads it again to send).
final class AlteredOnResend: SparkFileSource {
    private let disk = DiskFileSource()
    private let seen = Mutex<Set<String>>([])

    func size(of path: String) throws(SparkFileFailure) -> UInt64 { try disk.size(of: path) }

    func read(_ path: String, at offset: UInt64, count: Int) throws(SparkFileFailure) -> [UInt8] {
        var bytes = try disk.read(path, at: offset, count: count)
        guard path.contains("altered"), offset == 0, !bytes.isEmpty else { return bytes }
        if !seen.withLock({ $0.insert(path).inserted }) { bytes[0] ^= 0xFF }
        return bytes
    }
}
