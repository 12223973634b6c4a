import BlueproofHost

extension TransferPeripheral {
    /// The sample's direction: notifications of `chunkSize` bytes, then "EOM"; then the
    /// central's write-back, until it unsubscribes or leaves.
    func send(_ payload: [UInt8], on link: Link, events: AsyncStream<GATTServerEvent>,
              emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        let faults = profile.faults
        let chunker = try TransferChunker(payload: payload, chunkSize: link.chunkSize + faults.chunkSizeDelta)
        let counter = ByteCounter()
        let (host, clock) = (self.host, self.clock)
        let (chunks, largest, elapsed) = try await guarded(
            link.connection, on: host, counter: counter, idle: profile.idleTimeout, clock: clock
        ) { () async throws -> (Int, Int, Duration) in
            let start = timeline.elapsed()
            var meter = TransferMeter()
            var (sent, chunks, largest) = (0, 0, 0)
            let last = chunker.count - 1
            if faults.emptyChunkBeforeMarker, payload.isEmpty { _ = try await host.notify([], of: link.valueHandle, to: link.connection) }
            for (index, value) in chunker.enumerated() {
                try Task.checkCancellation()
                if index == last, faults.omitEndOfMessage { break }
                if faults.dropChunksShorterThanMarker, index < last, value.count < TransferChunker.endOfMessage.count { continue }
                if index < last, faults.losesChunk(index, chunkSize: chunker.chunkSize) { continue }
                guard try await (faults.indicateChunks ? host.indicate(value, of: link.valueHandle, to: link.connection)
                                 : host.notify(value, of: link.valueHandle, to: link.connection)) else {
                    throw TransferError.unsubscribed(bytes: sent)
                }
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
            return (chunks, largest, elapsed)
        }
        // Done sending; the central writes back, then unsubscribes and disconnects. A controller
        // may take the last chunks long before they reach the central (Rootcanal queues them),
        // so this waits as long as for a central at the start.
        let connection = link.connection
        let reply = await first(of: events, within: profile.acceptTimeout, clock: clock) { event -> [UInt8]?? in
            switch event {
            case let .written(from, handle, value, _) where from == connection && handle == link.valueHandle:
                return .some(value)
            case let .subscriptionChanged(from, handle, false, _) where from == connection && handle == link.valueHandle:
                return .some(nil)
            default:
                return nil
            }
        } ?? nil
        if let reply { emit(.reply(reply)) }
        return TransferSummary(
            role: .peripheral, direction: .peripheralToCentral, sent: true, bytes: payload.count, mtu: link.mtu,
            chunkSize: link.chunkSize, chunks: chunks, largestChunk: largest, elapsed: elapsed,
            sha256: SHA256.hex(payload), payload: nil, reply: reply, peer: connection.peerAddress)
    }

    /// Reversed: the central's writes reassembled until "EOM", answered with one notification.
    func receive(on link: Link, reply: TransferReply, events: AsyncStream<GATTServerEvent>,
                 emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        let counter = ByteCounter()
        let (host, limit) = (self.host, profile.payloadLimit)
        let connection = link.connection
        let (payload, chunks, largest, elapsed) = try await guarded(
            connection, on: host, counter: counter, idle: profile.idleTimeout, clock: clock
        ) { () async throws -> ([UInt8], Int, Int, Duration) in
            var reassembler = TransferReassembler(limit: limit)
            var meter = TransferMeter()
            var start: Duration?
            for await event in events {
                switch event {
                case let .written(from, handle, value, _) where from == connection && handle == link.valueHandle:
                    let begun = start ?? timeline.elapsed()
                    start = begun
                    switch try reassembler.receive(value) {
                    case let .data(total):
                        counter.set(total)
                        let progress = TransferProgress(bytes: total, total: nil, elapsed: timeline.elapsed() - begun)
                        if let due = meter.update(progress) { emit(.progress(due)) }
                    case let .complete(payload):
                        let elapsed = timeline.elapsed() - begun
                        emit(.progress(TransferProgress(bytes: payload.count, total: payload.count, elapsed: elapsed)))
                        return (payload, reassembler.chunks, reassembler.largestChunk, elapsed)
                    }
                case let .subscriptionChanged(from, handle, false, _) where from == connection && handle == link.valueHandle:
                    throw TransferError.unsubscribed(bytes: reassembler.buffer.count)
                default:
                    continue
                }
            }
            throw CancellationError()
        }
        let answer = reply.value(for: payload, chunkSize: link.chunkSize)
        do {
            try await host.notify(answer, of: link.valueHandle, to: connection)
        } catch {
            throw TransferError.from(error, connection: connection, bytes: payload.count)
        }
        return TransferSummary(
            role: .peripheral, direction: .centralToPeripheral, sent: false, bytes: payload.count, mtu: link.mtu,
            chunkSize: link.chunkSize, chunks: chunks, largestChunk: largest, elapsed: elapsed,
            sha256: SHA256.hex(payload), payload: payload, reply: nil, peer: connection.peerAddress)
    }
}
