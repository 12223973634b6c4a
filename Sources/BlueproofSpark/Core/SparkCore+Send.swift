import Crypto

/// Data blocks and files out ("Data and Files"), and the pull the link drives.
extension SparkCore {
    /// `send(data, description:)`: an in-memory block, progress as it goes, `done` at the end.
    public mutating func send(_ data: [UInt8], description: String, on id: SparkConnectionID) throws(SparkError) -> UInt64 {
        _ = try acceptedRecord(id)
        let header = SparkTransferHeader(transfer: 0, kind: .data, size: UInt64(data.count), sha256: SparkDigest.sha256(of: data), name: description)
        return try queueTransfer(header, body: .memory(data), on: id)
    }

    /// `sendFile(filePath)`: the name is the path's last component; the file is hashed now and
    /// read again chunk by chunk, so one that vanishes or shrinks meanwhile fails the transfer
    /// on both sides.
    public mutating func sendFile(_ path: String, on id: SparkConnectionID) throws(SparkError) -> UInt64 {
        _ = try acceptedRecord(id)
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        let name = String((configuration.defects.contains(.fileNameFromFirstComponent) ? components.first : components.last) ?? "")
        if let reason = SparkRules.name(name, isFileName: true) { throw .invalid(reason) }
        let size: UInt64
        do { size = try source.size(of: path) } catch { throw .file(error) }
        if let reason = SparkRules.size(size, kind: .file) { throw .invalid(reason) }
        var hasher = SHA256()
        var offset: UInt64 = 0
        while offset < size {
            let bytes: [UInt8]
            do { bytes = try source.read(path, at: offset, count: configuration.chunkBytes) } catch { throw .file(error) }
            guard !bytes.isEmpty else { throw .file(SparkFileFailure(path: path, reason: "shorter than its size")) }
            hasher.update(data: bytes)
            offset += UInt64(bytes.count)
        }
        let header = SparkTransferHeader(transfer: 0, kind: .file, size: size, sha256: Array(hasher.finalize()), name: name)
        return try queueTransfer(header, body: .file(path), on: id)
    }

    /// The header a queued data block or file goes out with (its size and SHA-256, as the
    /// receiver will check them); nil once its header has left or for other sends.
    public func outgoingHeader(ofSend send: UInt64) -> SparkTransferHeader? {
        for queue in queues.values {
            for case .transfer(let transfer) in queue.bulk where transfer.send == send { return transfer.header }
        }
        return nil
    }

    private mutating func queueTransfer(_ header: SparkTransferHeader, body: OutgoingTransfer.Body, on id: SparkConnectionID) throws(SparkError) -> UInt64 {
        if let reason = SparkRules.name(header.name, isFileName: configuration.defects.contains(.dataDescriptionAsFileName) ? true : header.kind == .file) ?? SparkRules.size(header.size, kind: header.kind) {
            throw .invalid(reason)
        }
        var header = header
        header.transfer = connections[id]?.takeLocalID() ?? 0
        let send = newSendID()
        queues[id.peer, default: PeerQueue()].bulk.append(.transfer(OutgoingTransfer(send: send, connection: id, header: header, body: body)))
        return send
    }

    /// The next frame for `peer` once its link has room (a credit), or `nil`: control frames
    /// first, then the oldest send, one piece at a time. Send progress events fire here, as
    /// pieces leave.
    public mutating func nextFrame(for peer: UInt64) -> [UInt8]? {
        guard var queue = queues[peer], !queue.isEmpty else { return nil }
        defer { queues[peer] = queue }
        if !queue.control.isEmpty { return queue.control.removeFirst() }
        let chunk = configuration.chunkBytes
        switch queue.bulk[0] {
        case .stream(let send, let id, let channel, let bytes):
            let piece = Array(bytes.prefix(chunk))
            connections[id]?.queuedStreamBytes -= piece.count
            if configuration.defects.contains(.streamQueueNeverReleased) { connections[id]?.queuedStreamBytes += piece.count }
            if bytes.count > chunk {
                let overlap = configuration.defects.contains(.streamPiecesOverlap) ? 1 : 0
                queue.bulk[0] = .stream(send: send, connection: id, channel: channel, bytes: Array(bytes.dropFirst(chunk - overlap)))
            } else {
                queue.bulk.removeFirst()
                let fraction: Double? = configuration.defects.contains(.streamProgressReported) ? 1 : nil
                if !configuration.defects.contains(.streamDoneWhenQueued) { events.append(.sendProgress(id, send: send, SparkProgress(fraction: fraction, done: true))) }
            }
            return try? envelope(id, .streamBlock(channel: channel, bytes: piece)).encoded()
        case .transfer(var transfer):
            let id = transfer.connection
            let frame: SparkFrame
            if !transfer.headerSent {
                transfer.headerSent = true
                frame = .transferHeader(transfer.header)
                queue.bulk[0] = .transfer(transfer)
            } else if transfer.offset < transfer.header.size {
                let count = Int(min(UInt64(chunk), transfer.header.size - transfer.offset))
                switch readPiece(transfer, count: count) {
                case .success(let bytes):
                    transfer.offset += UInt64(count)
                    frame = .chunk(transfer: transfer.header.transfer, bytes: bytes)
                    queue.bulk[0] = .transfer(transfer)
                    let backwards = configuration.defects.contains(.progressBackwards) && transfer.offset == 2 * UInt64(count)
                    let early = configuration.defects.contains(.doneReportedTwice) && transfer.offset == transfer.header.size
                    if !configuration.defects.contains(.progressSkipped) {
                        events.append(.sendProgress(id, send: transfer.send, SparkProgress(fraction: backwards ? 0 : transfer.fraction, done: early)))
                    }
                case .failure(let failure) where configuration.defects.contains(.unreadableFileStalls) && failure.reason.hasPrefix(SparkFileFailure.readStep):
                    queue.bulk.removeFirst()
                    return nil
                case .failure where configuration.defects.contains(.vanishedFileEndsAsDone):
                    queue.bulk.removeFirst()
                    frame = .done(transfer: transfer.header.transfer)
                    events.append(.sendProgress(id, send: transfer.send, SparkProgress(fraction: 1, done: true)))
                case .failure(let failure):
                    queue.bulk.removeFirst()
                    frame = .error(transfer: transfer.header.transfer, failure: .sourceUnavailable)
                    events.append(.sendProgress(id, send: transfer.send, SparkProgress(fraction: transfer.fraction, done: false, error: .sourceUnavailable(failure.path))))
                }
            } else {
                queue.bulk.removeFirst()
                frame = .done(transfer: transfer.header.transfer)
                let fraction: Double = configuration.defects.contains(.emptySendDoneAtZero) && transfer.header.size == 0 ? 0 : 1
                events.append(.sendProgress(id, send: transfer.send, SparkProgress(fraction: fraction, done: true)))
            }
            return try? envelope(id, frame).encoded()
        }
    }

    /// `count` bytes of the transfer at its offset, or why a file cannot give them: gone,
    /// shorter, or there but unreadable. Each fails the send as `sourceUnavailable`.
    private func readPiece(_ transfer: OutgoingTransfer, count: Int) -> Result<[UInt8], SparkFileFailure> {
        switch transfer.body {
        case .memory(let data):
            let start = Int(transfer.offset)
            return .success(Array(data[start..<start + count]))
        case .file(let path):
            let bytes: [UInt8]
            do { bytes = try source.read(path, at: transfer.offset, count: count) } catch { return .failure(error) }
            guard bytes.count == count else { return .failure(SparkFileFailure(path: path, reason: "shorter than its header said")) }
            return .success(bytes)
        }
    }
}
