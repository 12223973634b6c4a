import BlueproofSpark
import Foundation

/// What `spark listen` does with its node's events: accepts available connections with both
/// receive callbacks set first ("Receiving Data": data sent before them is ignored), shows
/// progress, and reports each file, data block and stream on standard output as it ends.
final class SparkReceiver {
    /// One transfer or stream on its way in.
    private struct Incoming {
        var started = ContinuousClock.now
        var bar: ProgressBar
        var stream: FileHandle?
        var path: String?
        var digest = SparkDigest()
        var bytes = 0
    }

    private struct Key: Hashable {
        var connection: SparkConnectionID
        var id: UInt32
        var stream: Bool
    }

    private let node: SparkChannelNode
    private let folder: String
    private let limit: Int?
    private var arrived = 0
    private var incoming: [Key: Incoming] = [:]

    init(node: SparkChannelNode, folder: String, limit: Int?) {
        self.node = node
        self.folder = folder
        self.limit = limit
    }

    /// Handles `events` until they end or `limit` items have arrived.
    func run(_ events: AsyncStream<SparkEvent>) async {
        for await event in events {
            await handle(event)
            if let limit, arrived >= limit { return }
        }
    }

    private func handle(_ event: SparkEvent) async {
        switch event {
        case .offered(let id, let metadata):
            Console.line("offer \(id)" + (metadata.isEmpty ? "" : ", metadata \(Self.quoted(metadata))"))
        case .available(let id):
            do {
                try await node.perform { core in
                    try core.setReceiveCallbacks(id, data: true, file: true)
                    try core.accept(id)
                }
            } catch {
                Console.line("could not accept \(id): \(error)")
            }
        case .accepted(let id):
            Console.line("accepted \(id)")
        case .ended(let id, let reason, let side):
            Console.line("ended \(id): " + (reason == .linkLost ? "the link was lost" : "\(reason) by \(side == .local ? "this side" : "the peer")"))
        case .channelOpened(let id, let channel, let description, _):
            let path = "\(folder)/stream-\(id.peer)-\(id.number)-\(channel)"
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            incoming[Key(connection: id, id: channel, stream: true)] = Incoming(
                bar: ProgressBar(label: "stream \(Self.quoted(description))"), stream: FileHandle(forWritingAtPath: path), path: path)
            Console.line("stream \(Self.quoted(description)) \(id), channel \(channel), opened")
        case .dataAvailable(let id, let data) where data.kind == .stream:
            let key = Key(connection: id, id: data.id, stream: true)
            guard var stream = incoming[key] else { return }
            stream.stream?.write(Data(data.data))
            stream.digest.update(data.data)
            stream.bytes += data.data.count
            stream.bar.update(bytes: stream.bytes, total: nil, bytesPerSecond: Self.rate(stream.bytes, since: stream.started))
            incoming[key] = stream
        case .channelClosed(let id, let channel, let side):
            guard let stream = incoming.removeValue(forKey: Key(connection: id, id: channel, stream: true)) else { return }
            try? stream.stream?.close()
            stream.bar.finish()
            arrived += 1
            Console.line("stream \(id), channel \(channel), closed by \(side == .local ? "this side" : "the peer"): "
                + Self.summary(bytes: stream.bytes, since: stream.started, sha256: stream.digest.hex()) + ", saved as \(stream.path ?? "?")")
        case .dataAvailable(let id, let data):
            received(Key(connection: id, id: data.id, stream: false), what: "data \(Self.quoted(data.description))",
                     progress: data.progress ?? 0, complete: data.transferComplete, error: data.error) { started in
                let summary = Self.summary(bytes: data.data.count, since: started, sha256: SparkDigest.hex(of: data.data))
                if let text = String(bytes: data.data, encoding: .utf8),
                   text.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == "\t" || $0.value >= 0x20 && $0.value != 0x7F }) {
                    return "\(summary): \(text)"
                }
                let path = "\(self.folder)/data-\(id.peer)-\(id.number)-\(data.id)"
                _ = FileManager.default.createFile(atPath: path, contents: Data(data.data))
                return "\(summary), saved as \(path)"
            }
        case .fileAvailable(let id, let file):
            received(Key(connection: id, id: file.transfer, stream: false), what: "file \(Self.quoted(file.name))",
                     progress: file.progress, complete: file.transferComplete, error: file.error) { started in
                guard let path = file.path, let digest = try? SparkDigest.file(path) else { return "complete, but no file to show" }
                return Self.summary(bytes: Int(digest.bytes), since: started, sha256: digest.sha256) + ", saved as \(path)"
            }
        case .ignored(let peer, let why):
            Console.progress("ignored a frame from \(peer): \(why)")
        case .offering, .sendProgress:
            break
        }
    }

    /// A data block's or file's progress, and its report when it ends.
    private func received(_ key: Key, what: String, progress: Double, complete: Bool, error: SparkTransferError?,
                          report: (ContinuousClock.Instant) -> String) {
        let transfer = incoming[key] ?? Incoming(bar: ProgressBar(label: what))
        guard complete || error != nil else {
            transfer.bar.update(fraction: progress, detail: Self.elapsed(since: transfer.started))
            incoming[key] = transfer
            return
        }
        incoming[key] = nil
        transfer.bar.finish()
        arrived += 1
        if let error {
            Console.line("\(what) \(key.connection) failed: \(Self.text(error))")
        } else {
            Console.line("\(what) \(key.connection): \(report(transfer.started))")
        }
    }

    /// A transfer's failure in words.
    static func text(_ error: SparkTransferError) -> String {
        switch error {
        case .sourceUnavailable(let path): "the sender's file \(path) vanished or shrank"
        case .channelClosed(let channel): "channel \(channel) was closed"
        case .connectionEnded(let reason): reason == .linkLost ? "the link was lost" : "the connection ended (\(reason))"
        case .remote(let failure): "the other side reported it failed (\(failure))"
        case .sizeMismatch(let declared, let received): "\(received) bytes arrived of the \(declared) declared"
        case .digestMismatch: "the bytes do not hash to the SHA-256 their header declared"
        case .storage(let failure): "it could not be stored: \(failure)"
        case .refused(let why): "refused: \(why)"
        }
    }

    static func summary(bytes: Int, since start: ContinuousClock.Instant, sha256: String) -> String {
        let seconds = Self.seconds(since: start)
        return "\(bytes) bytes in " + String(format: "%.2f s (%.1f kB/s)", seconds, seconds > 0 ? Double(bytes) / seconds / 1000 : 0)
            + ", SHA-256 \(sha256)"
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func rate(_ bytes: Int, since start: ContinuousClock.Instant) -> Double {
        let seconds = seconds(since: start)
        return seconds > 0 ? Double(bytes) / seconds : 0
    }

    static func elapsed(since start: ContinuousClock.Instant) -> String { String(format: "%.1f s", seconds(since: start)) }

    static func quoted(_ text: String) -> String { "\"\(text.count > 60 ? text.prefix(60) + "…" : text)\"" }
}
