import BlueproofAsync
import BlueproofWire

extension LEHost {
    /// How long a signaling request waits for its response (RTX, Vol 3, Part A §6.2.1).
    static let signalingTimeout: Duration = .seconds(30)
    /// Frames a channel may queue for credits before its sender waits.
    static let channelQueueLimit = 8
    /// SDUs a channel keeps for a reader that has not asked yet (issue 17); later ones are dropped and logged.
    static let channelBacklogLimit = 16

    /// Accepts LE credit-based channels on `spsm` from every connection, present and future
    /// (Vol 3, Part A §4.22–§4.23), and returns them as they open.
    public func listen(spsm: L2CAPSPSM, mtu: UInt16 = 2048, mps: UInt16 = 247, credits: UInt16 = 64)
        -> AsyncStream<L2CAPChannel> {
        let (stream, continuation) = AsyncStream.makeStream(of: L2CAPChannel.self)
        channelServers[spsm]?.continuation.finish()
        channelServers[spsm] = ChannelServer(
            parameters: L2CAPSignaling.ServerParameters(mtu: mtu, mps: mps, initialCredits: credits),
            continuation: continuation)
        for handle in Array(links.keys) {
            try? links[handle]?.signaling.register(spsm: spsm, mtu: mtu, mps: mps, credits: credits)
        }
        return stream
    }

    /// Stops accepting channels on `spsm`: later requests are refused (SPSM not supported,
    /// Vol 3, Part A §4.23) and the stream ``listen(spsm:mtu:mps:credits:)`` returned ends.
    /// Channels already open stay open.
    public func stopListening(spsm: L2CAPSPSM) {
        channelServers.removeValue(forKey: spsm)?.continuation.finish()
        for handle in Array(links.keys) { links[handle]?.signaling.unregister(spsm: spsm) }
    }

    /// Opens a credit-based channel to `spsm` on the peer (Vol 3, Part A §4.22).
    public func openChannel(on connection: LEConnection, spsm: L2CAPSPSM, mtu: UInt16 = 2048, mps: UInt16 = 247,
                            credits: UInt16 = 64) async throws(LEHostError) -> L2CAPChannel {
        let handle = connection.handle
        guard links[handle] != nil else { throw .notConnected(handle: handle) }
        let localCID: L2CAPChannelID, actions: [L2CAPSignaling.Action]
        do {
            (localCID, actions) = try links[handle]!.signaling.connect(spsm: spsm, mtu: mtu, mps: mps, credits: credits)
        } catch {
            throw .channelRefused(spsm: spsm, reason: "\(error)")
        }
        let opened = OneShot<Result<L2CAPChannel, LEHostError>>()
        links[handle]?.channelOpenings[localCID] = opened
        carryOutSignaling(actions, on: handle)
        let outcome = try? await withTimeout(Self.signalingTimeout, clock: clock, what: "LE Credit Based Connection Response") {
            await opened.wait()
        }
        if let outcome { return try outcome.get() }
        links[handle]?.channelOpenings[localCID] = nil
        if let identifier = links[handle]?.signaling.pendingConnectIdentifier(for: localCID) {
            performSignaling(on: handle) { $0.timeout(identifier: identifier) }
        }
        throw .peerTimedOut(what: "LE Credit Based Connection Response", limit: Self.signalingTimeout)
    }

    /// SDUs arriving on `channel`, until it closes.
    public func incomingSDUs(on channel: L2CAPChannel) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let handle = channel.connection.handle
        guard links[handle]?.signaling.channel(channel.local.cid) != nil else {
            continuation.finish()
            return stream
        }
        links[handle]?.channelInbound[channel.local.cid]?.finish()
        links[handle]?.channelInbound[channel.local.cid] = continuation
        for sdu in links[handle]?.channelBacklog.removeValue(forKey: channel.local.cid) ?? [] { continuation.yield(sdu) }
        return stream
    }

    /// Sends one SDU on `channel`, segmented into K-frames as credits allow (§10.1). Waits
    /// while the channel's queue or the connection's ACL queue is full.
    public func send(_ sdu: [UInt8], on channel: L2CAPChannel) async throws(LEHostError) {
        let handle = channel.connection.handle
        let cid = channel.local.cid
        while let queued = links[handle]?.signaling.channel(cid)?.queuedFrameCount, queued >= Self.channelQueueLimit {
            let drained = OneShot<Bool>()
            links[handle]?.channelWaiters[cid, default: []].append(drained)
            guard await drained.wait() == true else { throw .channelClosed(cid: cid) }
        }
        try await waitForRoom(on: handle, below: Self.outboundQueueLimit)
        guard links[handle]?.signaling.channel(cid) != nil else { throw .channelClosed(cid: cid) }
        do {
            let actions = try links[handle]!.signaling.send(sdu: sdu, on: cid)
            carryOutSignaling(actions, on: handle)
        } catch {
            throw .sduRefused(cid: cid, reason: "\(error)")
        }
    }

    /// Waits until every SDU sent on `channel` has left this host: no K-frame waits for
    /// credits (§10.1) and the controller has completed every ACL packet of the connection
    /// (Number Of Completed Packets, Vol 4, Part E §7.7.19). What a sender awaits before it
    /// disconnects, since a controller flushes what it holds then. Throws when the channel or
    /// the connection closes first.
    public func drain(_ channel: L2CAPChannel) async throws(LEHostError) {
        let handle = channel.connection.handle
        let cid = channel.local.cid
        // The handle may name a newer connection once this one ended (a reused handle).
        guard links[handle]?.connection == channel.connection else { throw .channelClosed(cid: cid) }
        while let queued = links[handle]?.signaling.channel(cid)?.queuedFrameCount, queued > 0 {
            let moved = OneShot<Bool>()
            links[handle]?.channelWaiters[cid, default: []].append(moved)
            guard await moved.wait() == true, links[handle]?.connection == channel.connection else { throw .channelClosed(cid: cid) }
        }
        guard links[handle]?.signaling.channel(cid) != nil, let acl else { throw .channelClosed(cid: cid) }
        try await waitForCompletion(ofPDU: acl.pdusQueued(on: handle), on: channel.connection)
    }

    /// Stops returning credits to the peer on `channel`, or resumes and gives back what it used
    /// meanwhile (§10.1): a tester's fault, under which the peer's sends must wait, not fail
    /// or overrun.
    public func withholdCredits(_ withheld: Bool, on channel: L2CAPChannel) throws(LEHostError) {
        let handle = channel.connection.handle
        guard links[handle]?.connection == channel.connection,
              let actions = try? links[handle]?.signaling.withholdCredits(withheld, on: channel.local.cid) else {
            throw .channelClosed(cid: channel.local.cid)
        }
        carryOutSignaling(actions, on: handle)
    }

    /// A broken variant's fault: acts as if the peer had granted `credits` more on `channel`,
    /// so what waits for credits goes out without them (§10.1 forbids it).
    public func assumeCredits(_ credits: UInt16, on channel: L2CAPChannel) {
        let handle = channel.connection.handle
        guard links[handle]?.connection == channel.connection,
              let actions = try? links[handle]?.signaling.assumeCredits(credits, on: channel.local.cid) else { return }
        carryOutSignaling(actions, on: handle)
    }

    /// K-frames this side may send on `channel` now (credits the peer granted, not yet used);
    /// nil once it closed.
    public func sendCredits(on channel: L2CAPChannel) -> Int? {
        guard links[channel.connection.handle]?.connection == channel.connection else { return nil }
        return links[channel.connection.handle]?.signaling.channel(channel.local.cid)?.sendCredits
    }

    /// Waits until the peer has used every credit this side granted on `channel`. Throws when
    /// the channel closes first.
    public func peerCreditsExhausted(on channel: L2CAPChannel) async throws(LEHostError) {
        let handle = channel.connection.handle
        let cid = channel.local.cid
        while links[handle]?.connection == channel.connection, let credits = links[handle]?.signaling.channel(cid)?.peerCredits {
            if credits == 0 { return }
            let used = OneShot<Bool>()
            links[handle]?.creditWaiters[cid, default: []].append(used)
            guard await used.wait() == true else { break }
        }
        throw .channelClosed(cid: cid)
    }

    /// Closes `channel` (Vol 3, Part A §4.6).
    public func close(_ channel: L2CAPChannel) {
        performSignaling(on: channel.connection.handle) { signaling in
            (try? signaling.disconnect(channel.local.cid)) ?? []
        }
    }

    // MARK: Signaling actions

    /// Runs `step` on the connection's signaling state and carries out what it asks.
    func performSignaling(on handle: UInt16, _ step: (inout L2CAPSignaling) -> [L2CAPSignaling.Action]) {
        guard links[handle] != nil else { return }
        carryOutSignaling(step(&links[handle]!.signaling), on: handle)
    }

    private func carryOutSignaling(_ actions: [L2CAPSignaling.Action], on handle: UInt16) {
        guard let connection = links[handle]?.connection else { return }
        for action in actions {
            switch action {
            case let .send(frame):
                try? sendL2CAP(frame.payload, channel: frame.channelID, on: handle)
            case let .channelOpened(spsm, local, remote):
                let channel = L2CAPChannel(connection: connection, spsm: spsm, local: local, remote: remote)
                if let opening = links[handle]?.channelOpenings.removeValue(forKey: local.cid) {
                    opening.resolve(.success(channel))
                } else {
                    channelServers[spsm]?.continuation.yield(channel)
                }
            case let .channelFailed(localCID, failure):
                links[handle]?.channelOpenings.removeValue(forKey: localCID)?
                    .resolve(.failure(.channelRefused(spsm: nil, reason: "\(failure)")))
            case let .channelClosed(localCID, reason):
                logger.debug("channel \(localCID) on 0x\(hex(handle)) closed: \(reason)")
                if case let .violation(problem) = reason { violation("L2CAP channel \(localCID): \(problem)") }
                links[handle]?.channelInbound.removeValue(forKey: localCID)?.finish()
                links[handle]?.channelBacklog[localCID] = nil
                for waiter in links[handle]?.channelWaiters.removeValue(forKey: localCID) ?? [] { waiter.resolve(false) }
                for waiter in links[handle]?.creditWaiters.removeValue(forKey: localCID) ?? [] { waiter.resolve(false) }
            case let .sduReceived(localCID, sdu):
                if let reader = links[handle]?.channelInbound[localCID] {
                    reader.yield(sdu)
                } else if (links[handle]?.channelBacklog[localCID, default: []].count ?? Self.channelBacklogLimit) < Self.channelBacklogLimit {
                    links[handle]?.channelBacklog[localCID, default: []].append(sdu)
                } else {
                    logger.debug("channel \(localCID) on 0x\(hex(handle)): SDU dropped, no reader and \(Self.channelBacklogLimit) waiting")
                }
            case let .updateConnectionParameters(request):
                let connection = connection
                Task {
                    try? await updateConnection(connection, intervalMin: request.intervalMin, intervalMax: request.intervalMax,
                                                latency: request.latency, supervisionTimeout: request.timeout)
                }
            case .connectionParameterUpdateRequested, .connectionParameterUpdateFinished:
                break
            case let .peerViolation(problem):
                violation("L2CAP signaling on 0x\(hex(handle)): \(problem)")
            }
        }
        wakeChannelSenders(on: handle)
        wakeCreditWaiters(on: handle)
    }

    /// Waiters for a channel's credits to run out check once more.
    private func wakeCreditWaiters(on handle: UInt16) {
        guard let waiting = links[handle]?.creditWaiters, !waiting.isEmpty else { return }
        for (cid, waiters) in waiting where links[handle]?.signaling.channel(cid)?.peerCredits ?? 0 == 0 {
            links[handle]?.creditWaiters[cid] = nil
            for waiter in waiters { waiter.resolve(true) }
        }
    }

    /// Senders waiting on a channel whose queue has room again check once more.
    private func wakeChannelSenders(on handle: UInt16) {
        guard let waiting = links[handle]?.channelWaiters, !waiting.isEmpty else { return }
        for (cid, waiters) in waiting {
            let queued = links[handle]?.signaling.channel(cid)?.queuedFrameCount ?? 0
            guard queued < Self.channelQueueLimit else { continue }
            links[handle]?.channelWaiters[cid] = nil
            for waiter in waiters { waiter.resolve(true) }
        }
    }
}
