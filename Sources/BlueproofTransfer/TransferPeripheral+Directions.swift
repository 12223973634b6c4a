import BlueproofHost

extension TransferPeripheral {
    /// The sample's direction: notifications of `chunkSize` bytes, then "EOM"; then the
    /// central's write-back, until it unsubscribes and leaves (``awaitDeparture(of:events:emit:)``).
    ///
    /// A chunk counts as sent once the controller has completed it (``TransferDelivery``): the
    /// connection ending before "EOM" was completed fails the transfer at once with the bytes
    /// that did leave, and the elapsed time runs to the completion of "EOM".
    func send(_ payload: [UInt8], on link: Link, events: AsyncStream<GATTServerEvent>,
              emit: @escaping Emit) async throws(TransferError) -> TransferSummary {
        let faults = profile.faults
        let chunker = try TransferChunker(payload: payload, chunkSize: link.chunkSize + faults.chunkSizeDelta,
                                          splitsMarker: !faults.markerChunkUnsplit)
        let counter = ByteCounter()
        let (host, clock) = (self.host, self.clock)
        let connection = link.connection
        let ledger = Shared(TransferDelivery())
        /// Takes in what the controller completed so far; whether that moved anything.
        @Sendable func settle() -> Bool {
            ledger.withLock { $0.completed(through: host.completedPDUs(on: connection)) }
        }
        let elapsed: Duration
        do {
            elapsed = try await guarded(
                connection, on: host, counter: counter, idle: profile.idleTimeout, clock: clock
            ) { () async throws -> Duration in
                let start = timeline.elapsed()
                var meter = TransferMeter()
                func report(final: Bool = false) {
                    let bytes = ledger.current.bytes
                    counter.set(bytes)
                    let progress = TransferProgress(bytes: bytes, total: payload.count, elapsed: timeline.elapsed() - start)
                    if final { emit(.progress(progress)) } else if let due = meter.update(progress) { emit(.progress(due)) }
                }
                let last = chunker.count - 1
                if faults.emptyChunkBeforeMarker, payload.isEmpty { _ = try await host.notify([], of: link.valueHandle, to: connection) }
                for (index, value) in chunker.enumerated() {
                    try Task.checkCancellation()
                    if index == last, faults.omitEndOfMessage { break }
                    if faults.dropChunksShorterThanMarker, index < last, value.count < TransferChunker.endOfMessage.count { continue }
                    if index < last, faults.losesChunk(index, chunkSize: chunker.chunkSize) { continue }
                    if faults.indicateChunks {  // an indication counts once the central confirmed it
                        guard try await host.indicate(value, of: link.valueHandle, to: connection) else {
                            throw TransferError.unsubscribed(bytes: ledger.current.bytes)
                        }
                        ledger.withLock { $0.confirmed(dataBytes: index < last ? value.count : nil) }
                        report()
                        continue
                    }
                    guard let pdu = try await host.notifyTracked(value, of: link.valueHandle, to: connection) else {
                        throw TransferError.unsubscribed(bytes: ledger.current.bytes)
                    }
                    ledger.withLock { $0.handedOver(pdu: pdu, dataBytes: index < last ? value.count : nil) }
                    if settle() { report() }
                }
                while let next = ledger.current.nextPending {
                    try await host.waitForCompletion(ofPDU: next, on: connection)
                    if settle() { report() }
                }
                let elapsed = timeline.elapsed() - start
                report(final: true)
                return elapsed
            }
        } catch {
            // What left is what the controller completed, up to the end.
            _ = settle()
            throw error.sent(ledger.current.bytes)
        }
        let delivery = ledger.current
        let reply = try await awaitDeparture(of: link, events: events, emit: emit)
        return TransferSummary(
            role: .peripheral, direction: .peripheralToCentral, sent: true, bytes: delivery.bytes, mtu: link.mtu,
            chunkSize: link.chunkSize, chunks: delivery.chunks, largestChunk: delivery.largestChunk, elapsed: elapsed,
            sha256: SHA256.hex(Array(payload.prefix(delivery.bytes))), payload: nil, reply: reply,
            peer: connection.peerAddress)
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
                case let .writeRefused(from, handle, length, withResponse, error) where from == connection && handle == link.valueHandle:
                    emit(.writeRefused(length: length, withResponse: withResponse, error: error))
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
        _ = try await awaitDeparture(of: link, events: events, emit: emit)
        return TransferSummary(
            role: .peripheral, direction: .centralToPeripheral, sent: false, bytes: payload.count, mtu: link.mtu,
            chunkSize: link.chunkSize, chunks: chunks, largestChunk: largest, elapsed: elapsed,
            sha256: SHA256.hex(payload), payload: payload, reply: nil, peer: connection.peerAddress)
    }
}
