/// Frames in ("Receiving Data"): decoded, routed to their connection, every outcome an event.
extension SparkCore {
    /// One SDU from `peer`'s link. Undecodable frames are reported `malformed`; an offer that
    /// cannot be read is declined so the caller is not left waiting.
    public mutating func receive(_ bytes: [UInt8], from peer: UInt64) {
        let envelope: SparkEnvelope
        do {
            let defects = configuration.defects
            envelope = try SparkEnvelope.decode(bytes, checkingFileNames: !defects.contains(.fileNamePathTaken), checkingEmpty: !defects.contains(.emptyPayloadTaken))
        } catch {
            events.append(.ignored(peer: peer, .malformed(error)))
            if !configuration.defects.contains(.malformedOfferIgnored), let header = error.header, header.kind == 2, header.origin == .sender {
                let id = SparkConnectionID(peer: peer, number: header.connection, outgoing: false)
                if connections[id] == nil { sendControl(id, .decline(.malformed)) }
            }
            return
        }
        let id = SparkConnectionID(peer: peer, number: envelope.connection, outgoing: envelope.origin == .receiver)
        switch envelope.frame {
        case .hello:
            break  // for the transport adapter, which names the link's peer with it
        case .offer(let offer):
            guard !id.outgoing else { return events.append(.ignored(peer: peer, .unexpected(id, kind: envelope.frame.kind))) }
            receiveOffer(offer, id: id)
        case .accept, .decline, .end:
            receiveAnswer(envelope.frame, id: id)
        default:
            guard let record = connections[id] else { return events.append(.ignored(peer: peer, .unknownConnection(number: id.number, kind: envelope.frame.kind))) }
            guard record.state == .accepted else { return events.append(.ignored(peer: peer, .unexpected(id, kind: envelope.frame.kind))) }
            switch envelope.frame {
            case .channelOpen, .channelClose, .streamBlock: receiveStream(envelope.frame, id: id, record: record)
            default: receiveTransfer(envelope.frame, id: id, record: record)
            }
        }
    }

    /// Transfer headers, chunks, `done` and `error` from the peer.
    mutating func receiveTransfer(_ frame: SparkFrame, id: SparkConnectionID, record: ConnectionRecord) {
        switch frame {
        case .transferHeader(let header):
            guard header.transfer % 2 != record.nextLocalID % 2 || configuration.defects.contains(.foreignTransferTaken), record.incoming[header.transfer] == nil,
                  record.incoming.count < SparkLimits.maxIncomingTransfers,
                  !descriptionRefused(header),
                  header.kind == .file || bufferedDataBytes + header.size <= SparkLimits.maxBufferedDataBytes else {
                if configuration.defects.contains(.refusalUnsent) {
                    return events.append(.ignored(peer: id.peer, .unexpected(id, kind: frame.kind)))
                }
                if configuration.defects.contains(.refusalAsCancelled) {
                    sendControl(id, .error(transfer: header.transfer, failure: .cancelled))
                    return events.append(.ignored(peer: id.peer, .unexpected(id, kind: frame.kind)))
                }
                sendControl(id, .error(transfer: header.transfer, failure: .refused))
                return events.append(.ignored(peer: id.peer, .unexpected(id, kind: frame.kind)))
            }
            let either = configuration.defects.contains(.oneCallbackForBoth) && (record.dataCallback || record.fileCallback)
            let callback = (header.kind == .data ? record.dataCallback : record.fileCallback) || either || configuration.defects.contains(.deliversBeforeCallbacks)
            var transfer = IncomingTransfer(header: header, ignored: !callback)
            if transfer.ignored { events.append(.ignored(peer: id.peer, .noReceiveCallback(id))) }
            if header.kind == .file && !transfer.ignored {
                do throws(SparkFileFailure) {
                    if configuration.defects.contains(.partialNamedAfterFile), header.name.utf8.count > 223 {
                        throw SparkFileFailure(path: ".\(header.name).tmp-…", reason: "cannot create: File name too long")
                    }
                    if configuration.defects.contains(.overlappingFilesShareHandle), let open = record.incoming.values.lazy.compactMap(\.handle).first {
                        transfer.handle = open
                    } else if configuration.defects.contains(.emptyFileNeverCreated) && header.size == 0 {
                        // Created on the first chunk, which an empty file never has.
                    } else {
                        transfer.handle = try sink.begin(name: header.name)
                    }
                } catch {
                    sendControl(id, .error(transfer: header.transfer, failure: .storageFailed))
                    return report(transfer, on: id, complete: false, error: .storage(error))
                }
            }
            connections[id]?.incoming[header.transfer] = transfer
        case .chunk(let number, let bytes):
            guard var transfer = record.incoming[number] else { return events.append(.ignored(peer: id.peer, .unknownTransfer(id, number, failure: nil))) }
            guard transfer.received + UInt64(bytes.count) <= transfer.header.size else {
                return failAndRefuse(transfer, on: id, error: .sizeMismatch(declared: transfer.header.size, received: transfer.received + UInt64(bytes.count)))
            }
            transfer.received += UInt64(bytes.count)
            if transfer.ignored {
                connections[id]?.incoming[number] = transfer
                return
            }
            transfer.hasher.update(data: bytes)
            if let handle = transfer.handle {
                do throws(SparkFileFailure) {
                    if oneByteWriteFails(bytes) { throw SparkFileFailure(path: "", reason: "cannot write") }
                    try sink.append(bytes, to: handle)
                } catch {
                    return failAndRefuse(transfer, on: id, error: .storage(error), failure: .storageFailed)
                }
            } else {
                transfer.buffer.append(contentsOf: bytes)
            }
            connections[id]?.incoming[number] = transfer
            if transfer.header.kind == .file && configuration.defects.contains(.incomingFileProgressSilent) { return }
            report(transfer, on: id, complete: false, error: nil)
        case .done(let number):
            guard let transfer = connections[id]?.incoming.removeValue(forKey: number) else {
                return events.append(.ignored(peer: id.peer, .unknownTransfer(id, number, failure: nil)))
            }
            finish(transfer, on: id)
        case .error(let number, let failure):
            // The peer's failure may name our outgoing transfer (the receiver refused it) or its own.
            if configuration.defects.contains(.remoteErrorIgnored), connections[id]?.incoming[number] != nil { return }
            if let transfer = connections[id]?.incoming.removeValue(forKey: number) {
                failIncoming(transfer, on: id, error: .remote(failure))
            } else {
                if configuration.defects.contains(.refusedSendGoesOn), let refused = queues[id.peer]?.bulk.first(where: { item in
                    if case .transfer(let outgoing) = item { outgoing.connection == id && outgoing.header.transfer == number } else { false }
                }) {
                    return events.append(.sendProgress(id, send: refused.send, SparkProgress(fraction: refused.fraction, done: false, error: .remote(failure))))
                }
                let (all, streams) = (configuration.defects.contains(.remoteErrorCancelsAll), configuration.defects.contains(.remoteErrorCancelsStreams))
                let cancelled = cancelSends(on: id, matching: { item in
                    if case .transfer(let outgoing) = item { outgoing.header.transfer == number || all } else { streams }
                }, error: .remote(failure))
                // Naming neither (a send already done, or frames the peer wrote by hand): nothing changes.
                if cancelled == 0 { events.append(.ignored(peer: id.peer, .unknownTransfer(id, number, failure: failure))) }
            }
        default:
            break
        }
    }

    /// Whether the `oneByteWriteFails` variant fails this write (variant only).
    private func oneByteWriteFails(_ bytes: [UInt8]) -> Bool {
        configuration.defects.contains(.oneByteWriteFails) && bytes.count == 1
    }

    /// Whether the `dataDescriptionAsFileName` variant refuses `header`'s description (variant only).
    private func descriptionRefused(_ header: SparkTransferHeader) -> Bool {
        configuration.defects.contains(.dataDescriptionAsFileName) && SparkRules.name(header.name, isFileName: true) != nil
    }

    /// Declared sizes of the in-memory data blocks being received.
    private var bufferedDataBytes: UInt64 {
        connections.values.reduce(0) { total, record in
            record.incoming.values.reduce(total) { $0 + ($1.header.kind == .data || configuration.defects.contains(.filesCountedAsData) ? $1.header.size : 0) }
        }
    }

    /// `done`: complete only if every declared byte came and they hash to the header's SHA-256;
    /// a file is then renamed into the cache folder and its path reported, otherwise discarded.
    private mutating func finish(_ transfer: IncomingTransfer, on id: SparkConnectionID) {
        guard !transfer.ignored else { return }
        guard transfer.received == transfer.header.size else {
            return failAndRefuse(transfer, on: id, error: .sizeMismatch(declared: transfer.header.size, received: transfer.received), removed: true)
        }
        guard Array(transfer.hasher.finalize()) == transfer.header.sha256 || configuration.defects.contains(.digestUnchecked) else {
            return failAndRefuse(transfer, on: id, error: .digestMismatch, removed: true)
        }
        guard let handle = transfer.handle else { return report(transfer, on: id, complete: true, error: nil) }
        do {
            let path = try sink.commit(handle)
            report(transfer, on: id, complete: true, error: nil, path: path)
        } catch {
            failAndRefuse(transfer, on: id, error: .storage(error), failure: .storageFailed, removed: true)
        }
    }

    /// Fails an incoming transfer this side refuses, and tells the sender.
    private mutating func failAndRefuse(_ transfer: IncomingTransfer, on id: SparkConnectionID, error: SparkTransferError,
                                        failure: SparkTransferFailure = .refused, removed: Bool = false) {
        if configuration.defects.contains(.refusalAsCancelled) {
            if failure == .refused { return failAndRefuse(transfer, on: id, error: error, failure: .cancelled, removed: removed) }
        }
        if !removed && !configuration.defects.contains(.refusedTransferKept) { connections[id]?.incoming[transfer.header.transfer] = nil }
        if !configuration.defects.contains(.refusalUnsent) { sendControl(id, .error(transfer: transfer.header.transfer, failure: failure)) }
        failIncoming(transfer, on: id, error: error)
    }

    /// Fails an incoming transfer: the partial file is discarded, the callback gets the error
    /// and no path.
    mutating func failIncoming(_ transfer: IncomingTransfer, on id: SparkConnectionID, error: SparkTransferError) {
        if let handle = transfer.handle { sink.discard(handle) }
        if !transfer.ignored { report(transfer, on: id, complete: false, error: error) }
    }

    /// The receive callback's event for a transfer: progress, completion or failure.
    mutating func report(_ transfer: IncomingTransfer, on id: SparkConnectionID, complete: Bool, error: SparkTransferError?, path: String? = nil) {
        let header = transfer.header
        switch header.kind {
        case .data:
            events.append(.dataAvailable(id, SparkChannelData(kind: .data, id: header.transfer, description: header.name,
                                                              data: complete && !configuration.defects.contains(.receivedDataDropped) ? transfer.buffer : [],
                                                              progress: configuration.defects.contains(.receiveProgressInBytes) ? Double(transfer.received) : transfer.fraction,
                                                              transferComplete: complete, error: error)))
        case .file:
            events.append(.fileAvailable(id, SparkFileData(transfer: header.transfer, name: header.name, progress: transfer.fraction,
                                                           transferComplete: complete, path: complete ? path : nil, error: error)))
        }
    }
}
