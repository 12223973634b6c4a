import BlueproofWire

// Inbound PDUs: the LE signaling channel (Core Vol 3, Part A §4) and K-frames of the
// credit-based channels (§3.4, §10.1).

extension L2CAPSignaling {
    /// Takes one reassembled L2CAP PDU: C-frames on CID 0x0005 and K-frames on dynamic CIDs.
    /// PDUs on other CIDs (ATT, SMP) are not this struct's and return nothing.
    public mutating func receive(frame: L2CAPBasicFrame) -> [Action] {
        if frame.channelID == .leSignaling { return receiveSignaling(payload: frame.payload) }
        guard frame.channelID.isLEDynamic else { return [] }
        return receiveKFrame(localCID: frame.channelID, payload: frame.payload)
    }

    /// Takes the information payload of a C-frame on the LE signaling channel.
    public mutating func receiveSignaling(payload: [UInt8]) -> [Action] {
        // An identifier worth answering: present, not 0x00 (§4).
        let identifier: UInt8? = payload.count >= 2 && payload[1] != 0 ? payload[1] : nil
        if payload.count > Int(signalingMTU) {
            var actions: [Action] = [.peerViolation(.signalingMTUExceeded(size: payload.count))]
            if let identifier {
                actions.append(reply(identifier, .commandReject(.signalingMTUExceeded(actualMTU: signalingMTU))))
            }
            return actions
        }
        let signal: L2CAPSignal
        do {
            signal = try L2CAPSignal(payload: payload)
        } catch {
            var actions: [Action] = [.peerViolation(.malformedSignal(error))]
            // Never answer a response: a reject of a reject could loop.
            let code = L2CAPSignalCode(rawValue: payload.first ?? 0)
            if let identifier, !Self.responseCodes.contains(code) {
                actions.append(reply(identifier, .commandReject(.notUnderstood)))
            }
            return actions
        }
        return handle(signal)
    }

    /// Codes of commands that answer a request (§4): never answered with a Command Reject.
    static let responseCodes: Set<L2CAPSignalCode> = [
        .commandReject, .disconnectionResponse, .connectionParameterUpdateResponse,
        .leCreditBasedConnectionResponse, .creditBasedConnectionResponse,
        L2CAPSignalCode(rawValue: 0x03), L2CAPSignalCode(rawValue: 0x05), L2CAPSignalCode(rawValue: 0x09),
        L2CAPSignalCode(rawValue: 0x0B), L2CAPSignalCode(rawValue: 0x1A),
    ]

    mutating func handle(_ signal: L2CAPSignal) -> [Action] {
        switch signal.command {
        case .commandReject, .disconnectionResponse, .connectionParameterUpdateResponse,
             .leCreditBasedConnectionResponse:
            return handleResponse(signal)
        case let .disconnectionRequest(request):
            return handleDisconnectionRequest(request, identifier: signal.identifier)
        case let .connectionParameterUpdateRequest(request):
            return handleConnectionParameterUpdateRequest(request, identifier: signal.identifier)
        case let .leCreditBasedConnectionRequest(request):
            return handleConnectionRequest(request, identifier: signal.identifier)
        case let .flowControlCreditIndication(indication):
            return handleCredits(indication)
        case let .unknown(code, _):
            // §4: unknown or unsupported codes get "not understood"; responses are not answered.
            if Self.responseCodes.contains(code) { return [.peerViolation(.unexpectedResponse(signal))] }
            return [reply(signal.identifier, .commandReject(.notUnderstood))]
        }
    }

    // MARK: Requests from the peer

    /// §4.22, §4.23. Checks, in order: SPSM registered, source CID in the dynamic range,
    /// source CID not already used by an open channel, MTU and MPS acceptable, a local CID free.
    mutating func handleConnectionRequest(_ request: L2CAPLECreditBasedConnectionRequest, identifier: UInt8) -> [Action] {
        func refuse(_ result: L2CAPLECreditBasedConnectionResult) -> [Action] {
            [reply(identifier, .leCreditBasedConnectionResponse(.refused(result)))]
        }
        guard let server = servers[request.spsm] else { return refuse(.spsmNotSupported) }
        guard request.sourceCID.isLEDynamic else { return refuse(.invalidSourceCID) }
        guard !channels.values.contains(where: { $0.remote.cid == request.sourceCID }) else {
            return refuse(.sourceCIDAlreadyAllocated)
        }
        guard request.mtu >= L2CAPLECreditBasedConnectionRequest.minimumMTU,
              request.mps >= L2CAPLECreditBasedConnectionRequest.minimumMPS,
              request.mps <= L2CAPLECreditBasedConnectionRequest.maximumMPS else {
            return refuse(.unacceptableParameters)
        }
        guard let cid = freeCID() else { return refuse(.noResourcesAvailable) }
        let local = L2CAPCreditChannel.Endpoint(cid: cid, mtu: server.mtu, mps: server.mps, initialCredits: server.initialCredits)
        let remote = L2CAPCreditChannel.Endpoint(cid: request.sourceCID, mtu: request.mtu, mps: request.mps,
                                                 initialCredits: request.initialCredits)
        channels[cid] = L2CAPCreditChannel(spsm: request.spsm, local: local, remote: remote)
        let response = L2CAPLECreditBasedConnectionResponse(
            destinationCID: cid, mtu: server.mtu, mps: server.mps, initialCredits: server.initialCredits, result: .successful)
        return [reply(identifier, .leCreditBasedConnectionResponse(response)),
                .channelOpened(spsm: request.spsm, local: local, remote: remote)]
    }

    /// §4.6: the destination CID is this side's. Unknown: Command Reject "invalid CID"; known
    /// with another source CID: discarded.
    mutating func handleDisconnectionRequest(_ request: L2CAPDisconnectionRequest, identifier: UInt8) -> [Action] {
        let local = request.destinationCID
        let response = L2CAPDisconnectionResponse(destinationCID: local, sourceCID: request.sourceCID)
        if let channel = channels[local] {
            guard channel.remote.cid == request.sourceCID else {
                return [.peerViolation(.disconnectionSourceMismatch(request))]
            }
            channels[local] = nil
            return [reply(identifier, .disconnectionResponse(response)), .channelClosed(localCID: local, .remoteRequest)]
        }
        if closing.contains(local),
           pending.values.contains(.disconnect(local: local, remote: request.sourceCID)) {
            // Both sides disconnect at once: answer; the channel was already reported closed.
            return [reply(identifier, .disconnectionResponse(response))]
        }
        return [reply(identifier, .commandReject(.invalidCID(local: local, remote: request.sourceCID)))]
    }

    /// §4.20: only a central handles the request; a peripheral answers "not understood".
    mutating func handleConnectionParameterUpdateRequest(
        _ request: L2CAPConnectionParameterUpdateRequest, identifier: UInt8
    ) -> [Action] {
        guard role == .central else { return [reply(identifier, .commandReject(.notUnderstood))] }
        func respond(_ result: L2CAPConnectionParameterUpdateResult) -> Action {
            reply(identifier, .connectionParameterUpdateResponse(L2CAPConnectionParameterUpdateResponse(result: result)))
        }
        guard request.isValid else { return [respond(.rejected)] }
        switch connectionParameterUpdatePolicy {
        case .acceptValid:
            return [respond(.accepted), .updateConnectionParameters(request)]
        case .rejectAll:
            return [respond(.rejected)]
        case .askHost:
            awaitingHost.insert(identifier)
            return [.connectionParameterUpdateRequested(identifier: identifier, request: request)]
        }
    }

    /// §4.24: credits for the channel whose remote CID is `indication.cid`; overflow
    /// disconnects it (§10.1). Zero credits change nothing.
    mutating func handleCredits(_ indication: L2CAPFlowControlCreditIndication) -> [Action] {
        guard let localCID = channels.first(where: { $0.value.remote.cid == indication.cid })?.key,
              var channel = channels[localCID] else {
            if closing.contains(where: { cid in pending.values.contains(.disconnect(local: cid, remote: indication.cid)) }) {
                return []
            }
            return [.peerViolation(.creditsForUnknownChannel(indication))]
        }
        do {
            let frames = try channel.receiveCredits(indication.credits)
            channels[localCID] = channel
            return frames.map(Action.send)
        } catch {
            return startDisconnection(localCID, reason: .violation(error))
        }
    }

    // MARK: Responses to this side's requests

    mutating func handleResponse(_ signal: L2CAPSignal) -> [Action] {
        guard let request = pending[signal.identifier] else { return [.peerViolation(.unexpectedResponse(signal))] }
        switch (request, signal.command) {
        case let (.connect(spsm, local), .leCreditBasedConnectionResponse(response)):
            pending[signal.identifier] = nil
            return connectionAnswered(spsm: spsm, local: local, response: response)
        case let (.connect(_, local), .commandReject(reject)):
            pending[signal.identifier] = nil
            return [.channelFailed(localCID: local.cid, .rejected(reject))]
        case let (.disconnect(local, remote), .disconnectionResponse(response)):
            guard response.destinationCID == remote, response.sourceCID == local else {
                return [.peerViolation(.unexpectedResponse(signal))]
            }
            pending[signal.identifier] = nil
            closing.remove(local)
            return []
        case let (.disconnect(local, _), .commandReject):
            // The peer no longer knows the channel: it is closed either way.
            pending[signal.identifier] = nil
            closing.remove(local)
            return []
        case let (.connectionParameterUpdate, .connectionParameterUpdateResponse(response)):
            pending[signal.identifier] = nil
            return [.connectionParameterUpdateFinished(.answered(response.result))]
        case let (.connectionParameterUpdate, .commandReject(reject)):
            pending[signal.identifier] = nil
            return [.connectionParameterUpdateFinished(.rejected(reject))]
        default:
            return [.peerViolation(.unexpectedResponse(signal))]
        }
    }

    /// §4.23: a refusal fails the channel; an acceptance opens it unless its values break the
    /// LE limits or its destination CID is already used by another channel.
    mutating func connectionAnswered(
        spsm: L2CAPSPSM, local: L2CAPCreditChannel.Endpoint, response: L2CAPLECreditBasedConnectionResponse
    ) -> [Action] {
        guard response.result == .successful else { return [.channelFailed(localCID: local.cid, .refused(response.result))] }
        let problem: String? =
            if !response.destinationCID.isLEDynamic {
                "destination CID \(response.destinationCID) outside the dynamic range"
            } else if channels.values.contains(where: { $0.remote.cid == response.destinationCID }) {
                "destination CID \(response.destinationCID) already in use"
            } else if response.mtu < L2CAPLECreditBasedConnectionRequest.minimumMTU {
                "MTU \(response.mtu) below 23"
            } else if response.mps < L2CAPLECreditBasedConnectionRequest.minimumMPS
                        || response.mps > L2CAPLECreditBasedConnectionRequest.maximumMPS {
                "MPS \(response.mps) outside 23-65533"
            } else {
                nil
            }
        if let problem { return [.channelFailed(localCID: local.cid, .invalidResponse(problem))] }
        let remote = L2CAPCreditChannel.Endpoint(cid: response.destinationCID, mtu: response.mtu, mps: response.mps,
                                                 initialCredits: response.initialCredits)
        channels[local.cid] = L2CAPCreditChannel(spsm: spsm, local: local, remote: remote)
        return [.channelOpened(spsm: spsm, local: local, remote: remote)]
    }

    // MARK: K-frames

    /// A K-frame on a dynamic CID: reassembled, with credits returned per the channel's
    /// policy. A violation closes the channel and disconnects it (§10.1).
    mutating func receiveKFrame(localCID: L2CAPChannelID, payload: [UInt8]) -> [Action] {
        guard channels[localCID] != nil else {
            // Frames for a channel being disconnected are dropped quietly (§4.6).
            if closing.contains(localCID) { return [] }
            return [.peerViolation(.frameOnUnknownChannel(localCID))]
        }
        do throws(L2CAPCreditChannelViolation) {
            // In place: a copy of the channel would share, and so copy, the SDU being reassembled
            // on every K-frame (quadratic in the SDU's size).
            guard let reception = try channels[localCID]?.receive(payload: payload) else { return [] }
            var actions: [Action] = []
            if let sdu = reception.sdu { actions.append(.sduReceived(localCID: localCID, sdu)) }
            if reception.creditsToReturn > 0 {
                let indication = L2CAPFlowControlCreditIndication(cid: localCID, credits: reception.creditsToReturn)
                actions.append(reply(indicationIdentifier(), .flowControlCreditIndication(indication)))
            }
            return actions
        } catch {
            return startDisconnection(localCID, reason: .violation(error))
        }
    }

    /// An identifier for a signal that gets no response; never 0 (§4).
    mutating func indicationIdentifier() -> UInt8 {
        if let identifier = nextIdentifier() { return identifier }
        lastIdentifier = lastIdentifier == 255 ? 1 : lastIdentifier + 1
        return lastIdentifier
    }
}
