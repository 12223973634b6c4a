import BlueproofHost

extension TransferCentral {
    /// The sample's direction: notifications appended until "EOM", then the reply written back
    /// with Write Without Response.
    func receive(on link: Link, reply: TransferReply, emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        let counter = ByteCounter()
        let limit = profile.faults.ignorePayloadLimit ? Int.max : profile.payloadLimit
        let valueHandle = link.characteristic.valueHandle
        let faults = profile.faults
        // A broken variant's write-back goes to the declaration, one handle below the value.
        let writeHandle = faults.writeBackToWrongHandle ? link.characteristic.declarationHandle : valueHandle
        let (payload, chunks, largest, elapsed) = try await guarded(
            link.connection, on: host, counter: counter, idle: profile.idleTimeout, clock: clock
        ) { () async throws -> ([UInt8], Int, Int, Duration) in
            var reassembler = TransferReassembler(limit: limit)
            var meter = TransferMeter()
            var start: Duration?
            for await notification in link.notifications where notification.handle == valueHandle {
                let begun = start ?? timeline.elapsed()
                start = begun
                // The sample reads each value as UTF-8 text and skips one that is not; this
                // central keeps bytes (a broken variant does as the sample).
                if faults.dropNonUTF8Values, String(validating: notification.value, as: UTF8.self) == nil { continue }
                var value = notification.value
                if faults.endOnMarkerSuffix, value.count > TransferChunker.endOfMessage.count,
                   value.suffix(TransferChunker.endOfMessage.count).elementsEqual(TransferChunker.endOfMessage) {
                    _ = try reassembler.receive(Array(value.dropLast(TransferChunker.endOfMessage.count)))
                    value = TransferChunker.endOfMessage
                }
                switch try reassembler.receive(value) {
                case let .data(total):
                    counter.set(total)
                    if faults.writeBackBeforeEndOfMessage, reassembler.chunks == 1, !faults.skipWriteBack {
                        let early = reply.value(for: reassembler.buffer, chunkSize: link.chunkSize)
                        if !early.isEmpty { try await link.gatt.writeWithoutResponse(handle: writeHandle, value: early) }
                    }
                    let progress = TransferProgress(bytes: total, total: nil, elapsed: timeline.elapsed() - begun)
                    if let due = meter.update(progress) { emit(.progress(due)) }
                case let .complete(payload):
                    let elapsed = timeline.elapsed() - begun
                    emit(.progress(TransferProgress(bytes: payload.count, total: payload.count, elapsed: elapsed)))
                    return (faults.keepMarkerInMessage ? payload + TransferChunker.endOfMessage : payload, reassembler.chunks, reassembler.largestChunk, elapsed)
                }
            }
            // The stream ends with the connection.
            throw TransferError.disconnected(reason: link.connection.endReason, bytes: reassembler.buffer.count)
        }
        // The sample writes back on "EOM", whatever arrived: an empty payload gets an empty
        // write-back (only ``TransferReply/none`` writes nothing).
        let answer: [UInt8]? = faults.skipWriteBack || reply == .none ? nil : reply.value(for: payload, chunkSize: link.chunkSize)
        if let answer, !faults.writeBackBeforeEndOfMessage {
            do {
                try await link.gatt.writeWithoutResponse(handle: writeHandle, value: answer)
            } catch {
                throw TransferError.from(error, connection: link.connection, bytes: payload.count)
            }
        }
        return TransferSummary(
            role: .central, direction: .peripheralToCentral, sent: false, bytes: payload.count, mtu: link.mtu,
            chunkSize: link.chunkSize, chunks: chunks, largestChunk: largest, elapsed: elapsed,
            sha256: SHA256.hex(payload), payload: payload, reply: answer,
            peer: link.connection.peerAddress)
    }

    /// Reversed: chunks and "EOM" with Write Without Response (each waits while the outbound
    /// queue is full), then the peripheral's answer as one notification.
    func send(_ payload: [UInt8], on link: Link, emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        let chunker = try TransferChunker(payload: payload, chunkSize: link.chunkSize, splitsMarker: !profile.faults.markerChunkUnsplit)
        let counter = ByteCounter()
        let valueHandle = link.characteristic.valueHandle
        let (chunks, largest, elapsed, answer) = try await guarded(
            link.connection, on: host, counter: counter, idle: profile.idleTimeout, clock: clock
        ) { () async throws -> (Int, Int, Duration, [UInt8]) in
            let start = timeline.elapsed()
            var meter = TransferMeter()
            var (sent, chunks, largest) = (0, 0, 0)
            let last = chunker.count - 1
            for (index, value) in chunker.enumerated() {
                try Task.checkCancellation()
                if index < last, profile.faults.losesChunk(index, chunkSize: chunker.chunkSize) { continue }
                try await link.gatt.writeWithoutResponse(handle: valueHandle, value: value)
                guard index < last else { break }
                sent += value.count
                chunks += 1
                largest = max(largest, value.count)
                counter.set(sent)
                let progress = TransferProgress(bytes: sent, total: payload.count, elapsed: timeline.elapsed() - start)
                if let due = meter.update(progress) { emit(.progress(due)) }
            }
            let elapsed = timeline.elapsed() - start
            emit(.progress(TransferProgress(bytes: sent, total: payload.count, elapsed: elapsed)))
            for await notification in link.notifications where notification.handle == valueHandle {
                return (chunks, largest, elapsed, notification.value)
            }
            throw TransferError.disconnected(reason: link.connection.endReason, bytes: sent)
        }
        emit(.reply(answer))
        return TransferSummary(
            role: .central, direction: .centralToPeripheral, sent: true, bytes: payload.count, mtu: link.mtu,
            chunkSize: link.chunkSize, chunks: chunks, largestChunk: largest, elapsed: elapsed,
            sha256: SHA256.hex(payload), payload: nil, reply: answer, peer: link.connection.peerAddress)
    }
}
