import BlueproofWire

/// The LE signaling channel and the LE credit-based channels of one ACL connection
/// (Core Vol 3, Part A §4, §10.1), sans I/O.
///
/// Feed it every L2CAP PDU received on CID 0x0005 and on dynamic CIDs
/// (``receive(frame:)``), and the local host's requests (``connect(spsm:mtu:mps:credits:)``,
/// ``disconnect(_:)``, ``send(sdu:on:)``); carry out the returned ``Action``s in order.
/// Signaling timeouts (RTX, §6.2.1) belong to the actor: start a timer per identifier in
/// ``pendingIdentifiers`` and call ``timeout(identifier:)`` when it fires.
public struct L2CAPSignaling: Sendable {
    /// A request this side sent and awaits a response for.
    enum Pending: Hashable, Sendable {
        case connect(spsm: L2CAPSPSM, local: L2CAPCreditChannel.Endpoint)
        case disconnect(local: L2CAPChannelID, remote: L2CAPChannelID)
        case connectionParameterUpdate
    }

    public let role: Role
    /// MTUsig: the largest signaling packet this side accepts (§4; 23 at least on LE).
    public let signalingMTU: UInt16
    public let connectionParameterUpdatePolicy: ConnectionParameterUpdatePolicy
    /// At most this many dynamic CIDs in use at once (open, opening or closing).
    public let maximumChannels: Int

    /// Registered servers by SPSM.
    public private(set) var servers: [L2CAPSPSM: ServerParameters] = [:]
    /// Open channels by local CID.
    var channels: [L2CAPChannelID: L2CAPCreditChannel] = [:]
    /// Local CIDs of channels this side is disconnecting, awaiting the response.
    var closing: Set<L2CAPChannelID> = []
    var pending: [UInt8: Pending] = [:]
    /// Inbound update requests waiting for the host's answer (policy ``ConnectionParameterUpdatePolicy/askHost``).
    var awaitingHost: Set<UInt8> = []
    var lastIdentifier: UInt8 = 0

    /// The smallest MTUsig on LE (§4).
    public static let minimumSignalingMTU: UInt16 = 23

    public init(role: Role, signalingMTU: UInt16 = 23,
                connectionParameterUpdatePolicy: ConnectionParameterUpdatePolicy = .acceptValid,
                maximumChannels: Int = 64) {
        self.role = role
        self.signalingMTU = max(signalingMTU, Self.minimumSignalingMTU)
        self.connectionParameterUpdatePolicy = connectionParameterUpdatePolicy
        self.maximumChannels = min(max(maximumChannels, 0), L2CAPChannelID.leDynamicRange.count)
    }

    // MARK: State

    /// Identifiers of requests sent and not yet answered, ascending: each needs an RTX timer.
    public var pendingIdentifiers: [UInt8] { pending.keys.sorted() }
    /// The identifier of the pending LE Credit Based Connection Request for `localCID`, for
    /// the actor to report its timeout with ``timeout(identifier:)``.
    public func pendingConnectIdentifier(for localCID: L2CAPChannelID) -> UInt8? {
        pending.first { entry in
            if case let .connect(_, local) = entry.value { return local.cid == localCID }
            return false
        }?.key
    }

    /// Local CIDs of the open channels, ascending.
    public var openChannels: [L2CAPChannelID] { channels.keys.sorted() }
    /// The open channel with this local CID.
    public func channel(_ localCID: L2CAPChannelID) -> L2CAPCreditChannel? { channels[localCID] }

    // MARK: Servers

    /// Accepts inbound channels for `spsm` with these parameters from now on.
    public mutating func register(spsm: L2CAPSPSM, mtu: UInt16, mps: UInt16, credits: UInt16) throws(L2CAPRequestError) {
        try Self.check(spsm: spsm, mtu: mtu, mps: mps)
        servers[spsm] = ServerParameters(mtu: mtu, mps: mps, initialCredits: credits)
    }

    /// Refuses inbound channels for `spsm` from now on; open channels stay open.
    public mutating func unregister(spsm: L2CAPSPSM) {
        servers[spsm] = nil
    }

    // MARK: Outbound requests

    /// Sends an LE Credit Based Connection Request (§4.22) and returns the local CID that
    /// names the channel in the ``Action/channelOpened(spsm:local:remote:)`` or
    /// ``Action/channelFailed(localCID:_:)`` that follows.
    public mutating func connect(spsm: L2CAPSPSM, mtu: UInt16, mps: UInt16, credits: UInt16)
        throws(L2CAPRequestError) -> (localCID: L2CAPChannelID, actions: [Action]) {
        try Self.check(spsm: spsm, mtu: mtu, mps: mps)
        guard let cid = freeCID() else { throw .channelIDsExhausted }
        guard let identifier = nextIdentifier() else { throw .identifiersExhausted }
        let local = L2CAPCreditChannel.Endpoint(cid: cid, mtu: mtu, mps: mps, initialCredits: credits)
        pending[identifier] = .connect(spsm: spsm, local: local)
        let request = L2CAPLECreditBasedConnectionRequest(spsm: spsm, sourceCID: cid, mtu: mtu, mps: mps, initialCredits: credits)
        return (cid, [.send(L2CAPSignal(identifier: identifier, command: .leCreditBasedConnectionRequest(request)).frame)])
    }

    /// Closes an open channel: it stops carrying data at once (``Action/channelClosed(localCID:_:)``
    /// with ``CloseReason/localRequest``), and a Disconnection Request (§4.6) goes out; its
    /// CID is free again once the peer answers or the request times out.
    public mutating func disconnect(_ localCID: L2CAPChannelID) throws(L2CAPRequestError) -> [Action] {
        guard channels[localCID] != nil else { throw .noSuchChannel(localCID) }
        return startDisconnection(localCID, reason: .localRequest)
    }

    /// Sends an SDU on an open channel: the K-frames current credits allow go out now, the
    /// rest when credits come.
    public mutating func send(sdu: [UInt8], on localCID: L2CAPChannelID) throws(L2CAPRequestError) -> [Action] {
        guard var channel = channels[localCID] else { throw .noSuchChannel(localCID) }
        let frames = try channel.send(sdu: sdu)
        channels[localCID] = channel
        return frames.map(Action.send)
    }

    /// Stops returning credits on an open channel, or resumes (a tester's fault, §10.1): on
    /// resuming, a Flow Control Credit Indication gives back what the peer used meanwhile.
    public mutating func withholdCredits(_ withheld: Bool, on localCID: L2CAPChannelID) throws(L2CAPRequestError) -> [Action] {
        guard var channel = channels[localCID] else { throw .noSuchChannel(localCID) }
        let credits = channel.withholdCredits(withheld)
        channels[localCID] = channel
        guard credits > 0 else { return [] }
        return [reply(indicationIdentifier(), .flowControlCreditIndication(L2CAPFlowControlCreditIndication(cid: localCID, credits: credits)))]
    }

    /// A broken variant's fault: acts as if the peer had granted `credits` more on an open
    /// channel, so queued K-frames go out without credit (§10.1 forbids it; the peer must
    /// disconnect). Throws past 65535 credits.
    public mutating func assumeCredits(_ credits: UInt16, on localCID: L2CAPChannelID) throws -> [Action] {
        guard var channel = channels[localCID] else { throw L2CAPRequestError.noSuchChannel(localCID) }
        let frames = try channel.receiveCredits(credits)
        channels[localCID] = channel
        return frames.map(Action.send)
    }

    /// Peripheral: asks the central for new connection parameters (§4.20); the outcome comes
    /// as ``Action/connectionParameterUpdateFinished(_:)``.
    public mutating func requestConnectionParameterUpdate(_ request: L2CAPConnectionParameterUpdateRequest)
        throws(L2CAPRequestError) -> [Action] {
        guard role == .peripheral else { throw .notAllowedInRole }
        guard let identifier = nextIdentifier() else { throw .identifiersExhausted }
        pending[identifier] = .connectionParameterUpdate
        return [.send(L2CAPSignal(identifier: identifier, command: .connectionParameterUpdateRequest(request)).frame)]
    }

    /// Central with ``ConnectionParameterUpdatePolicy/askHost``: answers the peer's request
    /// `identifier` (from ``Action/connectionParameterUpdateRequested(identifier:request:)``).
    /// This only sends the response; the host runs LE Connection Update itself when it
    /// accepts. Identifiers not awaiting an answer return nothing.
    public mutating func answerConnectionParameterUpdate(identifier: UInt8, accepted: Bool) -> [Action] {
        guard awaitingHost.remove(identifier) != nil else { return [] }
        let response = L2CAPConnectionParameterUpdateResponse(result: accepted ? .accepted : .rejected)
        return [.send(L2CAPSignal(identifier: identifier, command: .connectionParameterUpdateResponse(response)).frame)]
    }

    /// The RTX timer of request `identifier` expired (§6.2.1): the request is abandoned.
    /// A connect fails with ``ChannelFailure/timedOut``; a disconnection completes locally.
    public mutating func timeout(identifier: UInt8) -> [Action] {
        guard let request = pending.removeValue(forKey: identifier) else { return [] }
        switch request {
        case let .connect(_, local):
            return [.channelFailed(localCID: local.cid, .timedOut)]
        case let .disconnect(local, _):
            closing.remove(local)
            return []
        case .connectionParameterUpdate:
            return [.connectionParameterUpdateFinished(.timedOut)]
        }
    }

    /// The ACL link is gone: every channel closes and every request fails.
    public mutating func linkClosed() -> [Action] {
        var actions: [Action] = []
        for identifier in pending.keys.sorted() {
            switch pending[identifier] {
            case let .connect(_, local)?: actions.append(.channelFailed(localCID: local.cid, .linkClosed))
            case .connectionParameterUpdate?: actions.append(.connectionParameterUpdateFinished(.timedOut))
            default: break
            }
        }
        actions += channels.keys.sorted().map { .channelClosed(localCID: $0, .linkClosed) }
        pending.removeAll()
        channels.removeAll()
        closing.removeAll()
        awaitingHost.removeAll()
        return actions
    }

    // MARK: Helpers

    static func check(spsm: L2CAPSPSM, mtu: UInt16, mps: UInt16) throws(L2CAPRequestError) {
        guard L2CAPSPSM.leRange.contains(spsm.rawValue) else {
            throw .unacceptableParameters("SPSM \(spsm) outside 0x0001-0x00ff")
        }
        guard mtu >= L2CAPLECreditBasedConnectionRequest.minimumMTU else {
            throw .unacceptableParameters("MTU \(mtu) below 23")
        }
        guard mps >= L2CAPLECreditBasedConnectionRequest.minimumMPS,
              mps <= L2CAPLECreditBasedConnectionRequest.maximumMPS else {
            throw .unacceptableParameters("MPS \(mps) outside 23-65533")
        }
    }

    /// The next identifier not waiting for a response, cycling through 1...255 (§4: never 0).
    mutating func nextIdentifier() -> UInt8? {
        var candidate = lastIdentifier
        for _ in 0..<255 {
            candidate = candidate == 255 ? 1 : candidate + 1
            if pending[candidate] == nil {
                lastIdentifier = candidate
                return candidate
            }
        }
        return nil
    }

    /// Local CIDs in use: open, closing, or asked for in a pending connect.
    var usedCIDs: Set<L2CAPChannelID> {
        var used = Set(channels.keys).union(closing)
        for request in pending.values {
            if case let .connect(_, local) = request { used.insert(local.cid) }
        }
        return used
    }

    /// The lowest free dynamic CID from 0x0040, within ``maximumChannels``.
    func freeCID() -> L2CAPChannelID? {
        let used = usedCIDs
        guard used.count < maximumChannels else { return nil }
        for raw in L2CAPChannelID.leDynamicRange where !used.contains(L2CAPChannelID(raw)) {
            return L2CAPChannelID(raw)
        }
        return nil
    }

    /// Closes an open channel now and sends a Disconnection Request for it.
    mutating func startDisconnection(_ localCID: L2CAPChannelID, reason: CloseReason) -> [Action] {
        guard let channel = channels.removeValue(forKey: localCID) else { return [] }
        var actions: [Action] = [.channelClosed(localCID: localCID, reason)]
        guard let identifier = nextIdentifier() else {
            // Nothing can be asked; the CID is released and the peer learns when the link goes.
            return actions
        }
        closing.insert(localCID)
        pending[identifier] = .disconnect(local: localCID, remote: channel.remote.cid)
        let request = L2CAPDisconnectionRequest(destinationCID: channel.remote.cid, sourceCID: localCID)
        actions.append(.send(L2CAPSignal(identifier: identifier, command: .disconnectionRequest(request)).frame))
        return actions
    }

    /// A signal this side sends without expecting a response (responses, indications).
    func reply(_ identifier: UInt8, _ command: L2CAPSignalCommand) -> Action {
        .send(L2CAPSignal(identifier: identifier, command: command).frame)
    }
}
