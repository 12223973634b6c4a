/// Offering, answering and ending connections ("Listening For Data Connections",
/// "Starting A Data Connection").
extension SparkCore {
    /// `startDataConnection(regId, metaData:)`: refused with the key error when no key for
    /// `peer` is on record, and with `metadataTooLarge` over 4096 bytes.
    public mutating func startDataConnection(to peer: UInt64, metadata: String = "") throws(SparkError) -> SparkConnectionID {
        let defects = configuration.defects
        let id = SparkConnectionID(peer: peer, number: nextConnection, outgoing: true)
        let sent = defects.contains(.metadataAsciiOnly) ? String(String.UnicodeScalarView(metadata.unicodeScalars.map { $0.isASCII ? $0 : "?" })) : metadata
        let offer = SparkOffer(caller: configuration.registrationID, callee: peer, callerKey: configuration.keyID, metadata: sent)
        let early = defects.contains(.checkedAfterSending)
        if early {
            nextConnection &+= 1
            sendControl(id, .offer(offer))
        }
        let counted = defects.contains(.metadataCountedInCharacters) ? metadata.count : metadata.utf8.count
        let limit = defects.contains(.metadataLimitLow) ? SparkLimits.maxMetadataBytes - 2 : SparkLimits.maxMetadataBytes
        if !defects.contains(.metadataUnbounded), counted > limit { throw .metadataTooLarge(bytes: counted, limit: limit) }
        guard keys[peer] != nil else { throw .keyError(peer: peer) }
        let most = configuration.concurrency.limit + (configuration.defects.contains(.secondCallStarted) ? 1 : 0)
        guard connections.count < most else { throw .tooManyConnections(limit: most) }
        connections[id] = ConnectionRecord(state: .offering, outgoing: true, deadline: clock.now().addingTimeInterval(configuration.offerTimeout))
        if !early {
            nextConnection &+= 1
            sendControl(id, .offer(offer))
        }
        events.append(.offering(id, metadata: metadata))
        return id
    }

    /// `dataConnectionSetupComplete`: an offered connection becomes available.
    public mutating func setupComplete(_ id: SparkConnectionID) throws(SparkError) {
        try expect(id, in: .offered)
        connections[id]?.state = .available
        events.append(.available(id))
        if configuration.acceptance == .automatic { try accept(id) }
    }

    /// `accept(_ connection:)`: an available connection is accepted on both sides.
    public mutating func accept(_ id: SparkConnectionID) throws(SparkError) {
        if configuration.defects.contains(.acceptOutOfState) {
            // The variant's accept: no state checked.
            connections[id]?.state = .accepted
            sendControl(id, .accept)
            return events.append(.accepted(id))
        }
        try expect(id, in: .available)
        connections[id]?.state = .accepted
        sendControl(id, .accept)
        if !configuration.defects.contains(.calleeAcceptUnreported) { events.append(.accepted(id)) }
        if configuration.defects.contains(.acceptEndsOthers) {
            for other in connections.keys where other != id && !other.outgoing && connections[other]?.state == .accepted { sendControl(other, .end(.ended)) }
        }
    }

    /// Declines an incoming connection not yet accepted (the sample's decline button).
    public mutating func decline(_ id: SparkConnectionID) throws(SparkError) {
        guard let record = connections[id] else { throw .unknownConnection(id) }
        guard !id.outgoing, record.state != .accepted else { throw .wrongState(id, record.state) }
        tearDown(id, reason: .declined, by: .local, notify: true)
    }

    /// `end(_ connection:)`, from either side and in any state.
    public mutating func end(_ id: SparkConnectionID, reason: SparkEndReason = .ended) throws(SparkError) {
        guard connections[id] != nil else { throw .unknownConnection(id) }
        tearDown(id, reason: reason, by: .local, notify: !configuration.defects.contains(.endUnannounced))
    }

    /// Sets the receive callbacks: until then data, stream and file frames are ignored
    /// ("If data is sent before the callbacks are specified, it will be ignored").
    public mutating func setReceiveCallbacks(_ id: SparkConnectionID, data: Bool, file: Bool) throws(SparkError) {
        guard connections[id] != nil else { throw .unknownConnection(id) }
        connections[id]?.dataCallback = data
        connections[id]?.fileCallback = file
    }

    func expect(_ id: SparkConnectionID, in state: SparkConnectionState) throws(SparkError) {
        guard let record = connections[id] else { throw .unknownConnection(id) }
        guard record.state == state else { throw .wrongState(id, record.state) }
    }

    /// An offer from `peer`: checked (callee, caller, key, limits), then offered, set up and
    /// accepted as the configuration says; a single-connection app ends it when it holds another.
    mutating func receiveOffer(_ offer: SparkOffer, id: SparkConnectionID) {
        guard connections[id] == nil else { return events.append(.ignored(peer: id.peer, .unexpected(id, kind: 2))) }
        let refusal: SparkEndReason? =
            if offer.callee != configuration.registrationID || offer.caller != id.peer { .malformed }
            else if id.number == 0 && !configuration.defects.contains(.offerZeroTaken) { .malformed }  // the hello's connection
            else if configuration.defects.contains(.incomingMetadataLimitLow) && offer.metadata.utf8.count > SparkLimits.maxMetadataBytes - 96 { .malformed }
            else if !configuration.defects.contains(.keyUnchecked),
                    configuration.defects.contains(.keyPresenceOnly) ? keys[id.peer] == nil : keys[id.peer] != offer.callerKey { .keyError }
            else if configuration.concurrency != .single && connections.count >= configuration.concurrency.limit { .tooManyConnections }
            else if configuration.defects.contains(.severalRefused) && !connections.isEmpty { .tooManyConnections }
            else { nil }
        if let refusal {
            sendControl(id, .decline(refusal))
            return events.append(.ended(id, refusal, by: .local))
        }
        let held = !connections.isEmpty || (heldBefore && configuration.defects.contains(.busyNeverFreed))
        let busy = configuration.concurrency == .single && held && !configuration.defects.contains(.secondOfferKept)
        heldBefore = true
        if busy && configuration.defects.contains(.busyBeforeOffered) {
            sendControl(id, .decline(.busy))
            return events.append(.ended(id, .busy, by: .local))
        }
        connections[id] = ConnectionRecord(state: .offered, outgoing: configuration.defects.contains(.calleeIDsOfCaller))
        if let kept = endedCallbacks.removeValue(forKey: id) { connections[id]?.dataCallback = kept.data; connections[id]?.fileCallback = kept.file }
        events.append(.offered(id, metadata: offer.metadata))
        if busy { return tearDown(id, reason: .busy, by: .local, notify: true) }
        let offeredAt = events.count - 1
        if configuration.setup == .automatic && !configuration.defects.contains(.setupNeverCompletes) { try? setupComplete(id) }
        if configuration.defects.contains(.availableBeforeOffered), events.indices.contains(offeredAt + 1), events[offeredAt + 1] == .available(id) {
            events.swapAt(offeredAt, offeredAt + 1)
        }
    }

    /// `accept`, `decline` and `end` from the peer.
    mutating func receiveAnswer(_ frame: SparkFrame, id: SparkConnectionID) {
        guard let record = connections[id] else { return events.append(.ignored(peer: id.peer, .unknownConnection(number: id.number, kind: frame.kind))) }
        switch frame {
        case .accept where id.outgoing && record.state == .offering,
             .decline where id.outgoing && record.state == .offering && configuration.defects.contains(.declineTakenAsAccept):
            connections[id]?.state = .accepted
            connections[id]?.deadline = nil
            if !configuration.defects.contains(.acceptUnreported) { events.append(.accepted(id)) }
        case .decline(let reason) where id.outgoing && record.state == .offering:
            let reported = reason == .keyError && configuration.defects.contains(.remoteKeyErrorAsDeclined) ? .declined : reason
            tearDown(id, reason: reported, by: .remote, notify: false)
        case .decline(let reason) where configuration.defects.contains(.strayDeclineEnds):
            tearDown(id, reason: reason, by: .remote, notify: false)
        case .end(.linkLost) where configuration.defects.contains(.peerLinkLostIgnored):
            events.append(.ignored(peer: id.peer, .unexpected(id, kind: frame.kind)))
        case .end(let reason) where configuration.defects.contains(.endAnswered):
            tearDown(id, reason: reason, by: .remote, notify: true)
        case .end(let reason):
            tearDown(id, reason: reason, by: .remote, notify: false)
        default:
            events.append(.ignored(peer: id.peer, .unexpected(id, kind: frame.kind)))
        }
    }
}
