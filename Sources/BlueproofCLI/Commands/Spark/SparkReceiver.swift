import BlueproofSpark
import Foundation

/// What `spark listen` does with its node's events: accepts available connections with both
/// receive callbacks set first ("Receiving Data": data sent before them is ignored), shows
/// progress, and reports each file, data block and stream on standard output as it ends.
/// Everything a peer names (metadata, names, texts) is printed with control characters
/// escaped, so a peer cannot forge a line or drive the terminal.
final class SparkReceiver {
    /// The most one stream may write to the folder (as much as a file may be, `SparkLimits.maxFileBytes`).
    static let maxStreamBytes = SparkLimits.maxFileBytes
    /// How long a listener that reached `--count` waits for its senders to end their connections.
    static let hangUpWait: Duration = .seconds(10)

    /// One transfer or stream on its way in.
    private struct Incoming {
        var started = ContinuousClock.now
        var bar: ProgressBar
        var stream: FileHandle?
        var path: String?
        var digest = SparkDigest()
        var bytes: UInt64 = 0
    }

    private struct Key: Hashable {
        var connection: SparkConnectionID
        var id: UInt32
        var stream: Bool
    }

    private enum Item: Sendable {
        case event(SparkEvent)
        case deadline
    }

    private let node: SparkChannelNode
    private let folder: String
    private let limit: Int?
    private var arrived = 0
    private var incoming: [Key: Incoming] = [:]
    private var live: Set<SparkConnectionID> = []

    init(node: SparkChannelNode, folder: String, limit: Int?) {
        self.node = node
        self.folder = folder
        self.limit = limit
    }

    /// Handles `events` until they end, or `limit` items have arrived and their senders have
    /// ended their connections (at most ``hangUpWait`` more): a sender still draining its
    /// last frames would otherwise see its link drop.
    func run(_ events: AsyncStream<SparkEvent>) async {
        let (items, input) = AsyncStream.makeStream(of: Item.self)
        let pump = Task {
            for await event in events { input.yield(.event(event)) }
            input.finish()
        }
        defer { pump.cancel() }
        var deadline: Task<Void, Never>?
        defer { deadline?.cancel() }
        for await item in items {
            guard case .event(let event) = item else { return }
            await handle(event)
            guard let limit, arrived >= limit else { continue }
            if live.isEmpty { return }
            if deadline == nil { deadline = Self.deadline(input) }
        }
    }

    /// Yields `.deadline` on `input` once ``hangUpWait`` has passed.
    private static func deadline(_ input: AsyncStream<Item>.Continuation) -> Task<Void, Never> {
        Task {
            try? await Task.sleep(for: hangUpWait)
            input.yield(.deadline)
        }
    }

    private func handle(_ event: SparkEvent) async {
        switch event {
        case .offered(let id, let metadata):
            Console.line("offer \(id)" + (metadata.isEmpty ? "" : ", metadata \(SparkText.quoted(metadata))"))
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
            live.insert(id)
            Console.line("accepted \(id)")
        case .ended(let id, let reason, let side):
            live.remove(id)
            for key in incoming.keys where key.connection == id && key.stream {
                failStream(key, why: reason == .linkLost ? "the link was lost" : "the connection ended (\(reason))")
            }
            Console.line("ended \(id): " + (reason == .linkLost ? "the link was lost" : "\(reason) by \(side == .local ? "this side" : "the peer")"))
        case .channelOpened(let id, let channel, let description, _):
            let key = Key(connection: id, id: channel, stream: true)
            guard let (path, handle) = Self.create("\(folder)/stream-\(id.peer)-\(id.number)-\(channel)") else {
                Console.line("stream \(SparkText.quoted(description)) \(id), channel \(channel): cannot create a file in \(folder); closing it")
                await node.perform { core in try? core.closeDataChannel(id, channel: channel) }
                return
            }
            incoming[key] = Incoming(bar: ProgressBar(label: "stream \(SparkText.quoted(description))"), stream: handle, path: path)
            Console.line("stream \(SparkText.quoted(description)) \(id), channel \(channel), opened")
        case .dataAvailable(let id, let data) where data.kind == .stream:
            await streamed(data.data, Key(connection: id, id: data.id, stream: true))
        case .channelClosed(let id, let channel, let side):
            let key = Key(connection: id, id: channel, stream: true)
            guard let stream = incoming.removeValue(forKey: key) else { return }
            try? stream.stream?.close()
            stream.bar.finish()
            arrived += 1
            Console.line("stream \(id), channel \(channel), closed by \(side == .local ? "this side" : "the peer"): "
                + SparkText.summary(bytes: stream.bytes, since: stream.started, sha256: stream.digest.hex()) + ", saved as \(stream.path ?? "?")")
        case .dataAvailable(let id, let data):
            received(Key(connection: id, id: data.id, stream: false), what: "data \(SparkText.quoted(data.description))",
                     progress: data.progress ?? 0, complete: data.transferComplete, error: data.error) { started in
                let summary = SparkText.summary(bytes: UInt64(data.data.count), since: started, sha256: SparkDigest.hex(of: data.data))
                if let text = String(bytes: data.data, encoding: .utf8) { return "\(summary): \(SparkText.escaped(text))" }
                guard let (path, handle) = Self.create("\(self.folder)/data-\(id.peer)-\(id.number)-\(data.id)"),
                      (try? handle.write(contentsOf: data.data)) != nil, (try? handle.close()) != nil else {
                    return "\(summary), not saved: cannot write to \(self.folder)"
                }
                return "\(summary), saved as \(path)"
            }
        case .fileAvailable(let id, let file):
            received(Key(connection: id, id: file.transfer, stream: false), what: "file \(SparkText.quoted(file.name))",
                     progress: file.progress, complete: file.transferComplete, error: file.error) { started in
                guard let path = file.path, let digest = try? SparkDigest.file(path) else { return "complete, but no file to show" }
                return SparkText.summary(bytes: digest.bytes, since: started, sha256: digest.sha256) + ", saved as \(path)"
            }
        case .ignored(let peer, let why):
            Console.progress("ignored a frame from \(peer): \(why)")
        case .offering, .sendProgress:
            break
        }
    }

    /// A stream block: written to its file, unless that fails or passes ``maxStreamBytes``,
    /// which closes the channel and fails the stream.
    private func streamed(_ bytes: [UInt8], _ key: Key) async {
        guard var stream = incoming[key] else { return }
        stream.bytes += UInt64(bytes.count)
        let failure: String? = if stream.bytes > Self.maxStreamBytes {
            "over the \(Self.maxStreamBytes) bytes a stream may write"
        } else if (try? stream.stream?.write(contentsOf: bytes)) == nil {
            "cannot write to \(stream.path ?? folder)"
        } else {
            nil
        }
        if let failure {
            incoming[key] = stream
            failStream(key, why: failure)
            await node.perform { core in try? core.closeDataChannel(key.connection, channel: key.id) }
            return
        }
        stream.digest.update(bytes)
        stream.bar.update(bytes: Int(clamping: stream.bytes), total: nil, bytesPerSecond: SparkText.rate(stream.bytes, since: stream.started))
        incoming[key] = stream
    }

    /// A stream that cannot end well: its partial file removed, reported, counted.
    private func failStream(_ key: Key, why: String) {
        guard let stream = incoming.removeValue(forKey: key) else { return }
        try? stream.stream?.close()
        if let path = stream.path { try? FileManager.default.removeItem(atPath: path) }
        stream.bar.finish()
        arrived += 1
        Console.line("stream \(key.connection), channel \(key.id), failed after \(stream.bytes) bytes: \(why); nothing kept")
    }

    /// A data block's or file's progress, and its report when it ends.
    private func received(_ key: Key, what: String, progress: Double, complete: Bool, error: SparkTransferError?,
                          report: (ContinuousClock.Instant) -> String) {
        let transfer = incoming[key] ?? Incoming(bar: ProgressBar(label: what))
        guard complete || error != nil else {
            transfer.bar.update(fraction: progress, detail: SparkText.elapsed(since: transfer.started))
            incoming[key] = transfer
            return
        }
        incoming[key] = nil
        transfer.bar.finish()
        arrived += 1
        if let error {
            Console.line("\(what) \(key.connection) failed: \(SparkText.text(error))")
        } else {
            Console.line("\(what) \(key.connection): \(report(transfer.started))")
        }
    }

    /// A new file at `base`, or `base-2`, `base-3`, ... when taken: nothing is overwritten.
    static func create(_ base: String) -> (String, FileHandle)? {
        for attempt in 1...1000 {
            let path = attempt == 1 ? base : "\(base)-\(attempt)"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { return (path, FileHandle(fileDescriptor: fd, closeOnDealloc: true)) }
            guard errno == EEXIST else { return nil }
        }
        return nil
    }
}
