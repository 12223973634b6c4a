/// Named data channels ("Streams"): ordered blocks, no progress, closing cancels what is pending.
extension SparkCore {
    /// `createDataChannel(description)`: a channel id sends can use.
    public mutating func createDataChannel(_ id: SparkConnectionID, description: String) throws(SparkError) -> UInt32 {
        var record = try acceptedRecord(id)
        if let reason = SparkRules.name(description, isFileName: configuration.defects.contains(.descriptionAsFileName)) { throw .invalid(reason) }
        guard record.channels.count < SparkLimits.maxChannelsPerConnection else { throw .channelLimit(limit: SparkLimits.maxChannelsPerConnection) }
        let channel = record.takeLocalID() &+ (configuration.defects.contains(.channelIDsOfPeer) ? 1 : 0)
        record.channels[channel] = description
        connections[id] = record
        if !configuration.defects.contains(.channelUnannounced) { sendControl(id, .channelOpen(channel: channel, description: description)) }
        events.append(.channelOpened(id, channel: channel, description: description, by: .local))
        return channel
    }

    /// `closeDataChannel(channelId)`: sends still queued on the channel are cancelled
    /// (each reported with `channelClosed`), then the peer is told.
    public mutating func closeDataChannel(_ id: SparkConnectionID, channel: UInt32) throws(SparkError) {
        var record = try acceptedRecord(id)
        guard record.channels.removeValue(forKey: channel) != nil else { throw .unknownChannel(channel) }
        connections[id] = record
        if !configuration.defects.contains(.closeKeepsPending) { dropStreamSends(on: id, channel: channel) }
        if !configuration.defects.contains(.closeUnannounced) { sendControl(id, .channelClose(channel: channel)) }
        events.append(.channelClosed(id, channel: channel, by: .local))
    }

    /// `send(data, toChannel:)`: queues the block, cut to the link's frame size; the send's
    /// progress event (`done`, no fraction) comes when its last piece is handed to the link.
    /// Refused with `queueFull` past `SparkLimits.maxQueuedStreamBytes` waiting (back-pressure).
    public mutating func send(_ data: [UInt8], toChannel channel: UInt32, on id: SparkConnectionID) throws(SparkError) -> UInt64 {
        let record = try acceptedRecord(id)
        guard record.channels[channel] != nil else { throw .unknownChannel(channel) }
        guard !data.isEmpty else { throw .invalid(.invalidField("empty stream block")) }
        let queued = record.queuedStreamBytes + data.count
        guard queued <= SparkLimits.maxQueuedStreamBytes else { throw .queueFull(bytes: queued, limit: SparkLimits.maxQueuedStreamBytes) }
        connections[id]?.queuedStreamBytes = queued
        let send = newSendID()
        queues[id.peer, default: PeerQueue()].bulk.append(.stream(send: send, connection: id, channel: channel, bytes: data))
        if configuration.defects.contains(.streamDoneWhenQueued) { events.append(.sendProgress(id, send: send, SparkProgress(fraction: nil, done: true))) }
        return send
    }

    func acceptedRecord(_ id: SparkConnectionID) throws(SparkError) -> ConnectionRecord {
        guard let record = connections[id] else { throw .unknownConnection(id) }
        guard record.state == .accepted || (record.state == .offering && configuration.defects.contains(.channelBeforeAccept)) else {
            throw .wrongState(id, record.state)
        }
        return record
    }

    mutating func dropStreamSends(on id: SparkConnectionID, channel: UInt32) {
        var dropped = 0
        let everyChannel = configuration.defects.contains(.closeCancelsConnection)
        cancelSends(on: id, matching: { item in
            guard case .stream(_, _, let itemChannel, let bytes) = item, itemChannel == channel || everyChannel else { return false }
            dropped += bytes.count
            return true
        }, error: .channelClosed(channel), report: configuration.defects.isDisjoint(with: [.streamDoneWhenQueued, .cancelledUnreported]))
        connections[id]?.queuedStreamBytes -= dropped
    }

    /// `channelOpen`, `channelClose` and stream blocks from the peer.
    mutating func receiveStream(_ frame: SparkFrame, id: SparkConnectionID, record: ConnectionRecord) {
        switch frame {
        case .channelOpen(let channel, let description):
            // The peer's ids have the other parity; one of ours or one already open is a protocol slip.
            guard channel % 2 != record.nextLocalID % 2 || configuration.defects.contains(.foreignChannelTaken), record.channels[channel] == nil,
                  record.channels.count < SparkLimits.maxChannelsPerConnection,
                  !configuration.defects.contains(.descriptionAsFileName) || SparkRules.name(description, isFileName: true) == nil else {
                return events.append(.ignored(peer: id.peer, .unexpected(id, kind: frame.kind)))
            }
            connections[id]?.channels[channel] = description
            events.append(.channelOpened(id, channel: channel, description: description, by: .remote))
        case .channelClose(let channel):
            guard connections[id]?.channels.removeValue(forKey: channel) != nil else {
                return events.append(.ignored(peer: id.peer, .unknownChannel(id, channel, kind: frame.kind)))
            }
            dropStreamSends(on: id, channel: channel)
            events.append(.channelClosed(id, channel: channel, by: .remote))
        case .streamBlock(let channel, let bytes):
            guard let description = record.channels[channel] else { return events.append(.ignored(peer: id.peer, .unknownChannel(id, channel, kind: frame.kind))) }
            guard record.dataCallback || configuration.defects.contains(.deliversBeforeCallbacks) else { return events.append(.ignored(peer: id.peer, .noReceiveCallback(id))) }
            let kind: SparkChannelData.Kind = configuration.defects.contains(.streamTypedAsData) ? .data : .stream
            events.append(.dataAvailable(id, SparkChannelData(kind: kind, id: channel, description: description, data: bytes,
                                                               progress: nil, transferComplete: false)))
        default:
            break
        }
    }
}
