import BlueproofAsync
import BlueproofHost
import BlueproofTransmitter
import BlueproofWire

/// Connections: how a node heard at an unknown address is named, and how a named connection is
/// kept or closed (docs/transmitter-links.md, "Naming"). The central writes a hello with its
/// user id; the peripheral answers with a hello of its own; both then know who is at the other
/// end. The connection is kept once either side's application asks for it (``adopt(_:)``
/// sends an adopt chunk, so the other side keeps it too) and closed after
/// ``BLELinkProfile/probeHold`` otherwise.
extension BLELink {
    // MARK: Naming unknown nodes

    /// Plans a naming connection to the node at `address`: soon when this node's address is the
    /// lower (so two nodes rarely open one each), after ``BLELinkProfile/initiatorGrace``
    /// otherwise, if the other has not connected by then. Each start is put off at random
    /// (``namingJitter()``): nodes that heard a newcomer at once would otherwise all send it their
    /// connection requests in one advertising event, of which it takes one (Vol 6, Part B §4.5),
    /// and Rootcanal's initiators whose request was lost stay stuck (``connectAttempts(to:)``).
    func planNaming(_ address: BLEPeerAddress) {
        guard probes[address.address] == nil, !accepting(from: address) else { return }
        let first = ownAddress.map { $0.littleEndianBytes.reversed().lexicographicallyPrecedes(address.address.littleEndianBytes.reversed()) } ?? true
        let delay = (first ? .zero : profile.initiatorGrace * 2) + namingJitter()
        let clock = clock
        probes[address.address] = Task { [weak self] in
            guard (try? await sleep(on: clock, for: delay)) != nil else { return }
            await self?.probe(address, clock: clock)
        }
    }

    /// A random delay, up to 250 ms for each naming already planned (nodes that heard many
    /// newcomers at once spread their requests wider), at most ``BLELinkProfile/initiatorGrace``.
    private func namingJitter() -> Duration {
        let spread = min(250 * (probes.count + 1), Int(profile.initiatorGrace.seconds * 1000))
        return .milliseconds(Int.random(in: 0...max(spread, 1)))
    }

    /// Names the node at `address` by a connection, unless something named it meanwhile. A
    /// failure is logged; the address is not tried again for ``BLELinkProfile/initiatorGrace``
    /// and a random delay.
    private func probe(_ address: BLEPeerAddress, clock: any Clock<Duration>) async {
        if !stopped, localUser != nil, sightings.user(at: address.address) == nil, !accepting(from: address) {
            do {
                let user = try await dial(address, within: profile.namingTimeout)
                logger.debug("\(address.address) is \(user)")
                probes[address.address] = nil
                return
            } catch {
                logger.debug("could not name \(address.address): \(error)")
            }
            _ = try? await sleep(on: clock, for: profile.initiatorGrace + namingJitter())
        }
        probes[address.address] = nil
    }

    /// Whether a central at `address` has connected and not yet said hello: its naming is under
    /// way (its GATT setup can outlast the grace on a loaded machine), and opening a second
    /// connection would leave a pair with two.
    func accepting(from address: BLEPeerAddress) -> Bool {
        unnamed.values.contains { $0.central == nil && $0.connection.peerAddress == address.address }
    }

    /// As central: connect (within `limit`), exchange MTU, find the characteristic, subscribe,
    /// say hello, and wait for the peripheral's; returns who it is (``named(_:on:central:)`` has
    /// run). The host initiates one connection at a time: the turn is held until the
    /// connection is made, not through its GATT setup.
    func dial(_ address: BLEPeerAddress, within limit: Duration? = nil) async throws(LinkError) -> UserID {
        let limit = limit ?? profile.connectTimeout
        await take(.initiating)
        guard let localUser, !stopped else {
            turns.give(.initiating)
            throw LinkError(.unavailable, "the BLE link is not started")
        }
        if let user = sightings.user(at: address.address), sessions[user] != nil {
            turns.give(.initiating)
            return user
        }
        let connection: LEConnection
        do {
            connection = try await connectAttempts(to: address, within: limit)
            turns.give(.initiating)
        } catch .connectTimedOut {
            turns.give(.initiating)
            throw LinkError(.timeout, "no connection to \(address.address) within \(limit)")
        } catch {
            turns.give(.initiating)
            throw LinkError(.peerUnreachable, "could not connect to \(address.address): \(error)")
        }
        watch(connection)
        let gatt = host.gattClient(for: connection)
        let name = OneShot<UserID?>()
        nameWaiters[connection.handle] = name
        defer { nameWaiters[connection.handle] = nil }
        do {
            let remote = try await prepare(connection, gatt: gatt)
            guard connection.endReason == nil else { throw LinkError(.connectionLost, "the connection ended while preparing") }
            unnamed[connection.handle] = (connection, (gatt, remote))
            let hello = BLEFrameChunk(flags: .hello, sequence: 0, index: 0, totalLength: nil, body: localUser.bytes)
            try await gatt.write(handle: remote, value: hello.bytes)
        } catch {
            logger.debug("could not prepare \(connection): \(error)")
            try? await host.disconnect(connection)
            connectionEnded(connection)
            if let error = error as? LinkError { throw error }
            throw LinkError(.connectionLost, "GATT setup with \(address.address) failed: \(error)")
        }
        let peer = try? await withTimeout(profile.connectTimeout, clock: clock, what: "the hello of \(address.address)") { await name.wait() ?? nil }
        guard let user = peer ?? nil else {
            try? await host.disconnect(connection)
            connectionEnded(connection)
            throw LinkError(.timeout, "\(address.address) did not say hello within \(profile.connectTimeout)")
        }
        return user
    }

    /// LE Create Connection, cancelled and issued again every ``BLELinkProfile/connectAttempt``
    /// until `limit`. A connection request the advertiser never
    /// answered (two centrals sent theirs in one advertising event and it took the other) ends
    /// on a controller as Connection Failed to be Established after a few connection intervals
    /// (Vol 6, Part B §4.5); Rootcanal reports nothing, its initiator ignores every later
    /// advertisement, and its cancel leaves the controller's one pending-connection slot taken,
    /// so it refuses every other connection until one with that same peer completes. Issuing
    /// the request again soon is what clears it, before the peer, whose
    /// ``BLELinkProfile/initiatorGrace`` has passed, tries the other way into the stuck
    /// controller and is stuck in turn.
    private func connectAttempts(to address: BLEPeerAddress, within limit: Duration) async throws(LEHostError) -> LEConnection {
        var left = limit
        while true {
            let attempt = min(max(profile.connectAttempt, .milliseconds(100)), left)
            left -= attempt
            do {
                return try await host.connect(to: address.address, type: address.type, timeout: attempt)
            } catch .connectTimedOut where !stopped && left > .zero {
                logger.debug("no connection to \(address.address) within \(attempt); asking again")
            }
        }
    }

    /// MTU, discovery, subscription; returns the frame characteristic's value handle.
    private func prepare(_ connection: LEConnection, gatt: GATTClient) async throws -> UInt16 {
        if profile.mtu > ATTBearerDefaults.mtu { _ = try await gatt.exchangeMTU(profile.mtu) }
        let notifications = await host.notifications(on: connection)
        guard let service = try await gatt.discoverPrimaryService(uuid: profile.service).first,
              let characteristic = try await gatt.discoverCharacteristics(of: service)
                  .first(where: { $0.uuid == profile.characteristic }),
              characteristic.properties.isSuperset(of: [.notify, .writeWithoutResponse]) else {
            throw LinkError(.peerUnreachable, "the peer serves no usable transmitter characteristic")
        }
        let handle = connection.handle
        let remote = characteristic.valueHandle
        connectionTasks[connection, default: []].append(Task { [weak self] in
            for await notification in notifications where notification.handle == remote {
                await self?.chunkArrived(notification.value, on: handle)
            }
        })
        try await gatt.subscribe(characteristic)
        return remote
    }

    /// A central connected: advertise again (the connection stopped it) and wait for its hello.
    func accepted(_ connection: LEConnection) async {
        guard !stopped else {
            try? await host.disconnect(connection)
            return
        }
        unnamed[connection.handle] = (connection, nil)
        watch(connection)
        do {
            try await advertise()
        } catch {
            logger.debug("\(error)")
        }
    }

    /// A hello on a connection not named yet: the central's first write, or the peripheral's
    /// answer to ours. The peripheral answers with its own hello before naming the central.
    func hello(_ value: [UInt8], on connection: LEConnection) async {
        guard let chunk = try? BLEFrameChunk(bytes: value), chunk.flags.contains(.hello),
              let user = UserID(bytes: chunk.body), let localUser else {
            logger.debug("\(connection): first chunk is not a hello; ignored")
            return
        }
        guard let entry = unnamed.removeValue(forKey: connection.handle) else { return }
        if entry.central == nil {
            let answer = BLEFrameChunk(flags: .hello, sequence: 0, index: 0, totalLength: nil, body: localUser.bytes)
            guard (try? await host.notify(answer.bytes, of: valueHandle, to: connection)) == true else {
                logger.debug("\(connection): could not answer the hello of \(user); closing")
                try? await host.disconnect(connection)
                return
            }
        }
        await named(user, on: connection, central: entry.central)
    }

    /// `user` is at the other end of `connection`. Of two connections with one peer the first
    /// kept stays; of two that are both still unkept, the one the lower user id opened, so
    /// both sides keep the same one.
    private func named(_ user: UserID, on connection: LEConnection, central: (GATTClient, handle: UInt16)?) async {
        _ = nameWaiters[connection.handle]?.resolve(user)
        guard let localUser, user != localUser, !stopped else {
            try? await host.disconnect(connection)
            return
        }
        let address = BLEPeerAddress(address: connection.peerAddress, type: connection.peerAddressType)
        sightings.identify(address, as: user)
        if let existing = sessions[user] {
            let newIsLowers = (central != nil) == (localUser < user)
            guard !existing.ready, newIsLowers else {
                logger.debug("a second connection with \(user); closing it")
                try? await host.disconnect(connection)
                return
            }
            logger.debug("two connections with \(user) opened at once; keeping the lower id's")
            handles[existing.connection.handle] = nil
            sessions[user] = nil
            try? await host.disconnect(existing.connection)
        }
        let mtu = await host.attMTU(on: connection)
        guard connection.endReason == nil else { return }
        // Another connection with `user` was kept while this one waited for its MTU: this one is
        // nobody's now, so it is closed here (nothing else holds it).
        guard sessions[user] == nil,
              let chunker = try? BLEFrameChunker(chunkSize: BLEFrameChunk.chunkSize(forATTMTU: mtu), frameLimit: profile.frameLimit)
        else {
            logger.debug("a connection with \(user) not kept; closing it")
            try? await host.disconnect(connection)
            return
        }
        cancelStaleTimer(for: user)
        handles[connection.handle] = user
        sessions[user] = BLESession(connection: connection, role: central.map { .central($0.0, handle: $0.handle) } ?? .peripheral(handle: valueHandle),
                                    chunker: chunker, reassembler: BLEFrameReassembler(frameLimit: profile.frameLimit))
        present(user, at: address)
        if wanted.contains(user) {
            await adopt(user)
        } else {
            holdUnasked(user, connection)
        }
    }

    /// Closes the connection with `user` after ``BLELinkProfile/probeHold`` unless an
    /// application asked for it by then.
    private func holdUnasked(_ user: UserID, _ connection: LEConnection) {
        let clock = clock
        let hold = profile.probeHold
        holdTimers[user]?.cancel()
        holdTimers[user] = Task { [weak self] in
            guard (try? await sleep(on: clock, for: hold)) != nil else { return }
            await self?.holdEnded(user, connection)
        }
    }

    private func holdEnded(_ user: UserID, _ connection: LEConnection) async {
        holdTimers[user] = nil
        guard let session = sessions[user], session.connection == connection, !session.ready else { return }
        logger.debug("nobody asked for the connection with \(user) within \(profile.probeHold); closing it")
        try? await host.disconnect(connection)
        connectionEnded(connection)
    }

    /// This side's application wants the connection with `user`: keep it, and tell the peer
    /// (an adopt chunk), which keeps it too.
    func adopt(_ user: UserID) async {
        guard let session = sessions[user], !session.ready else { return }
        holdTimers.removeValue(forKey: user)?.cancel()
        let chunk = BLEFrameChunk(flags: .adopt, sequence: 0, index: 0, totalLength: nil, body: []).bytes
        do {
            switch session.role {
            case let .central(gatt, handle): try await gatt.writeWithoutResponse(handle: handle, value: chunk)
            case let .peripheral(handle): _ = try await host.notify(chunk, of: handle, to: session.connection)
            }
        } catch {
            logger.debug("could not tell \(user) the connection is kept: \(error)")
        }
        becameReady(user)
    }

    // MARK: Connecting on request

    public func connect(to peer: UserID) async throws(LinkError) {
        guard let localUser, !stopped else { throw LinkError(.unavailable, "the BLE link is not started") }
        if sessions[peer]?.ready == true { return }
        wanted.insert(peer)
        defer { if sessions[peer]?.ready != true { wanted.remove(peer) } }
        if sessions[peer] != nil {
            await adopt(peer)
            return try await waitUntilReady(peer)
        }
        guard let address = nearby[peer] else { throw LinkError(.peerUnreachable, "\(peer) is not nearby") }
        if localUser < peer {
            return try await open(peer, at: address)
        }
        // The lower id opens (or a connection is being named): wait for it, and open the
        // connection itself if the lower id does not within the grace.
        do {
            try await waitUntilReady(peer, within: profile.initiatorGrace)
        } catch where error.reason == .timeout {
            guard sessions[peer] == nil, let address = nearby[peer], !accepting(from: address) else { return try await waitUntilReady(peer) }
            try await open(peer, at: address)
        }
    }

    /// Opens the connection with `peer` (wanted, so it is kept once named).
    private func open(_ peer: UserID, at address: BLEPeerAddress) async throws(LinkError) {
        let user: UserID
        do {
            user = try await dial(address)
        } catch {
            if sessions[peer] == nil { forget(peer) }
            throw error
        }
        guard user == peer else { throw LinkError(.peerUnreachable, "\(address.address) is \(user) now, not \(peer)") }
        try await waitUntilReady(peer)
    }

    func waitUntilReady(_ peer: UserID, within limit: Duration? = nil) async throws(LinkError) {
        if sessions[peer]?.ready == true { return }
        let ready = OneShot<Bool>()
        readyWaiters[peer, default: []].append(ready)
        let limit = limit ?? profile.connectTimeout
        let outcome = try? await withTimeout(limit, clock: clock, what: "the connection of \(peer)") { await ready.wait() }
        switch outcome {
        case true?: return
        case false?: throw LinkError(.connectionLost, "the connection to \(peer) failed")
        case nil: throw LinkError(.timeout, "\(peer) did not connect within \(limit)")
        }
    }

    func resolveWaiters(_ peer: UserID, _ ready: Bool) {
        for waiter in readyWaiters.removeValue(forKey: peer) ?? [] { waiter.resolve(ready) }
    }

    func becameReady(_ peer: UserID) {
        guard sessions[peer] != nil, sessions[peer]?.ready == false else { return }
        holdTimers.removeValue(forKey: peer)?.cancel()
        sessions[peer]?.ready = true
        logger.debug("connected to \(peer)")
        output.yield(.connected(peer))
        for frame in sessions[peer]?.held ?? [] { output.yield(.frame(from: peer, bytes: frame)) }
        sessions[peer]?.held = []
        resolveWaiters(peer, true)
    }

    // MARK: Ending

    func watch(_ connection: LEConnection) {
        let host = host
        connectionTasks[connection, default: []].append(Task { [weak self] in
            // nil when cancelled (by stop, which ends the connection itself).
            guard await host.waitForDisconnection(connection) != nil else { return }
            await self?.connectionEnded(connection)
        })
    }

    func connectionEnded(_ connection: LEConnection) {
        connectionTasks[connection] = nil
        if unnamed[connection.handle]?.connection == connection { unnamed[connection.handle] = nil }
        guard let user = handles[connection.handle], let session = sessions[user], session.connection == connection else {
            if let user = handles[connection.handle], sessions[user]?.connection != connection { handles[connection.handle] = nil }
            return
        }
        handles[connection.handle] = nil
        sessions[user] = nil
        holdTimers.removeValue(forKey: user)?.cancel()
        resolveWaiters(user, false)
        if session.ready {
            logger.debug("disconnected from \(user)")
            output.yield(.disconnected(user))
        }
        if !stopped, nearby[user] != nil { armStaleTimer(for: user) }
    }

    public func disconnect(from peer: UserID) async {
        wanted.remove(peer)
        guard let session = sessions[peer] else { return }
        try? await host.disconnect(session.connection)
        connectionEnded(session.connection)
    }
}
