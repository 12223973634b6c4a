import BlueproofHost
import BlueproofWire
import Testing

@Suite("L2CAP LE signaling (Vol 3, Part A §4, §10.1)")
struct L2CAPSignalingTests {
    typealias Action = L2CAPSignaling.Action

    /// The action that sends this signal on CID 5.
    func sends(_ identifier: UInt8, _ command: L2CAPSignalCommand) -> Action {
        .send(L2CAPSignal(identifier: identifier, command: command).frame)
    }

    func signal(_ text: String) -> L2CAPBasicFrame {
        L2CAPBasicFrame(channelID: .leSignaling, payload: bytesOrDie(text))
    }

    func bytesOrDie(_ text: String) -> [UInt8] {
        guard let value = bytes(fromHex: text) else { fatalError("bad hex literal in test: \(text)") }
        return value
    }

    func server(_ role: L2CAPSignaling.Role = .peripheral, maximumChannels: Int = 64) throws -> L2CAPSignaling {
        var signaling = L2CAPSignaling(role: role, maximumChannels: maximumChannels)
        try signaling.register(spsm: L2CAPSPSM(0x80), mtu: 512, mps: 247, credits: 10)
        return signaling
    }

    /// A peer request: SPSM, source CID, MTU 100, MPS 50, 3 credits.
    func connectionRequest(_ identifier: UInt8, spsm: UInt16 = 0x80, source: UInt16 = 0x40, mtu: UInt16 = 100, mps: UInt16 = 50,
                           credits: UInt16 = 3) -> L2CAPBasicFrame {
        L2CAPSignal(identifier: identifier, command: .leCreditBasedConnectionRequest(L2CAPLECreditBasedConnectionRequest(
            spsm: L2CAPSPSM(spsm), sourceCID: L2CAPChannelID(source), mtu: mtu, mps: mps, initialCredits: credits))).frame
    }

    // MARK: Inbound channels

    @Test func acceptsARegisteredSPSM() throws {
        var signaling = try server()
        let actions = signaling.receive(frame: connectionRequest(7))
        let local = L2CAPCreditChannel.Endpoint(cid: L2CAPChannelID(0x40), mtu: 512, mps: 247, initialCredits: 10)
        let remote = L2CAPCreditChannel.Endpoint(cid: L2CAPChannelID(0x40), mtu: 100, mps: 50, initialCredits: 3)
        #expect(actions == [
            .send(signal("15 07 0a00 4000 0002 f700 0a00 0000")),
            .channelOpened(spsm: L2CAPSPSM(0x80), local: local, remote: remote),
        ])
        #expect(signaling.openChannels == [L2CAPChannelID(0x40)])
        // The next channel gets the next CID.
        let second = signaling.receive(frame: connectionRequest(8, source: 0x41))
        #expect(second.first == sends(8, .leCreditBasedConnectionResponse(L2CAPLECreditBasedConnectionResponse(
            destinationCID: L2CAPChannelID(0x41), mtu: 512, mps: 247, initialCredits: 10, result: .successful))))
    }

    @Test("refusals (§4.23)", arguments: [
        (UInt16(0x81), UInt16(0x40), UInt16(100), UInt16(50), L2CAPLECreditBasedConnectionResult.spsmNotSupported),
        (0x80, 0x0020, 100, 50, .invalidSourceCID),
        (0x80, 0x0080, 100, 50, .invalidSourceCID),
        (0x80, 0x0050, 100, 50, .sourceCIDAlreadyAllocated),
        (0x80, 0x0041, 22, 50, .unacceptableParameters),
        (0x80, 0x0041, 100, 22, .unacceptableParameters),
        (0x80, 0x0041, 100, 65534, .unacceptableParameters),
    ])
    func refusals(spsm: UInt16, source: UInt16, mtu: UInt16, mps: UInt16, result: L2CAPLECreditBasedConnectionResult) throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x50))
        let actions = signaling.receive(frame: connectionRequest(2, spsm: spsm, source: source, mtu: mtu, mps: mps))
        #expect(actions == [sends(2, .leCreditBasedConnectionResponse(.refused(result)))])
        #expect(signaling.openChannels.count == 1)
    }

    @Test func noResourcesWhenTheChannelLimitIsReached() throws {
        var signaling = try server(maximumChannels: 1)
        _ = signaling.receive(frame: connectionRequest(1, source: 0x40))
        #expect(signaling.receive(frame: connectionRequest(2, source: 0x41))
                == [sends(2, .leCreditBasedConnectionResponse(.refused(.noResourcesAvailable)))])
        signaling.unregister(spsm: L2CAPSPSM(0x80))
        #expect(signaling.receive(frame: connectionRequest(3, source: 0x42))
                == [sends(3, .leCreditBasedConnectionResponse(.refused(.spsmNotSupported)))])
    }

    @Test func registerRefusesParametersLEDoesNotAllow() {
        var signaling = L2CAPSignaling(role: .central)
        #expect(throws: L2CAPRequestError.self) { try signaling.register(spsm: L2CAPSPSM(0x100), mtu: 100, mps: 100, credits: 1) }
        #expect(throws: L2CAPRequestError.self) { try signaling.register(spsm: L2CAPSPSM(0x80), mtu: 22, mps: 100, credits: 1) }
        #expect(throws: L2CAPRequestError.self) { try signaling.register(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 65534, credits: 1) }
        #expect(signaling.servers.isEmpty)
    }

    // MARK: Outbound channels

    @Test func connectAndOpen() throws {
        var signaling = L2CAPSignaling(role: .central)
        let (cid, actions) = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 512, mps: 247, credits: 10)
        #expect(cid == L2CAPChannelID(0x40))
        #expect(actions == [.send(signal("14 01 0a00 8000 4000 0002 f700 0a00"))])
        #expect(signaling.pendingIdentifiers == [1])
        let opened = signaling.receive(frame: signal("15 01 0a00 7000 4000 1700 0200 0000"))
        #expect(opened == [.channelOpened(
            spsm: L2CAPSPSM(0x80),
            local: .init(cid: cid, mtu: 512, mps: 247, initialCredits: 10),
            remote: .init(cid: L2CAPChannelID(0x70), mtu: 64, mps: 23, initialCredits: 2))])
        #expect(signaling.pendingIdentifiers.isEmpty)
        #expect(signaling.channel(cid)?.sendCredits == 2)
    }

    @Test func connectRefusedRejectedOrTimedOut() throws {
        var signaling = L2CAPSignaling(role: .central)
        let (first, _) = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        let (second, _) = try signaling.connect(spsm: L2CAPSPSM(0x81), mtu: 100, mps: 100, credits: 1)
        let (third, _) = try signaling.connect(spsm: L2CAPSPSM(0x82), mtu: 100, mps: 100, credits: 1)
        #expect([first, second, third] == [L2CAPChannelID(0x40), L2CAPChannelID(0x41), L2CAPChannelID(0x42)])
        #expect(signaling.pendingIdentifiers == [1, 2, 3])
        #expect(signaling.receive(frame: signal("15 01 0a00 0000 0000 0000 0000 0200"))
                == [.channelFailed(localCID: first, .refused(.spsmNotSupported))])
        #expect(signaling.receive(frame: signal("01 02 0200 0000"))
                == [.channelFailed(localCID: second, .rejected(.notUnderstood))])
        #expect(signaling.timeout(identifier: 3) == [.channelFailed(localCID: third, .timedOut)])
        #expect(signaling.timeout(identifier: 3) == [])
        #expect(signaling.pendingIdentifiers.isEmpty)
        // Every CID is free again.
        #expect(try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1).localCID == L2CAPChannelID(0x40))
    }

    @Test func acceptanceWithInvalidValuesFails() throws {
        var signaling = L2CAPSignaling(role: .central)
        let (cid, _) = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        let actions = signaling.receive(frame: signal("15 01 0a00 0500 4000 1700 0200 0000"))
        #expect(actions == [.channelFailed(localCID: cid, .invalidResponse("destination CID LE signaling (0x0005) outside the dynamic range"))])
        #expect(signaling.openChannels.isEmpty)
    }

    @Test func responseNobodyAskedForIsReported() throws {
        var signaling = L2CAPSignaling(role: .central)
        let stray = signal("15 09 0a00 4000 4000 1700 0200 0000")
        let decoded = try L2CAPSignal(payload: stray.payload)
        #expect(signaling.receive(frame: stray) == [.peerViolation(.unexpectedResponse(decoded))])
        let reject = signal("01 09 0200 0000")
        #expect(signaling.receive(frame: reject) == [.peerViolation(.unexpectedResponse(try L2CAPSignal(payload: reject.payload)))])
        // A response of the wrong kind for a pending identifier is reported; the request stays pending.
        _ = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        let wrongKind = signal("13 01 0200 0000")
        #expect(signaling.receive(frame: wrongKind) == [.peerViolation(.unexpectedResponse(try L2CAPSignal(payload: wrongKind.payload)))])
        #expect(signaling.pendingIdentifiers == [1])
    }

    @Test func identifiersCycleThroughOneTo255AndSkipPendingOnes() throws {
        var signaling = L2CAPSignaling(role: .central)
        var seen: [UInt8] = []
        // Keep identifier 1's request pending for the whole run.
        _ = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        for _ in 0..<300 {
            let (_, actions) = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
            guard case let .send(frame) = actions.first else { Issue.record("no send"); return }
            let identifier = try L2CAPSignal(payload: frame.payload).identifier
            seen.append(identifier)
            _ = signaling.timeout(identifier: identifier)
        }
        #expect(!seen.contains(0))
        #expect(!seen.contains(1))
        #expect(seen.prefix(3) == [2, 3, 4])
        #expect(seen[253] == 255)
        #expect(seen[254] == 2)
    }

    @Test func identifiersAndCIDsRunOut() throws {
        var signaling = L2CAPSignaling(role: .central, maximumChannels: 2)
        _ = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        _ = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        #expect(throws: L2CAPRequestError.channelIDsExhausted) {
            try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        }
        var peripheral = L2CAPSignaling(role: .peripheral)
        let update = L2CAPConnectionParameterUpdateRequest(intervalMin: .init(rawValue: 6), intervalMax: .init(rawValue: 12),
                                                           latency: 0, timeout: .init(rawValue: 100))
        for _ in 0..<255 { _ = try peripheral.requestConnectionParameterUpdate(update) }
        #expect(peripheral.pendingIdentifiers.count == 255)
        #expect(throws: L2CAPRequestError.identifiersExhausted) { try peripheral.requestConnectionParameterUpdate(update) }
    }

    // MARK: Unknown and malformed signals

    @Test func unknownCodesGetCommandNotUnderstood() {
        var signaling = L2CAPSignaling(role: .peripheral)
        #expect(signaling.receive(frame: signal("0a 09 0200 0200")) == [.send(signal("01 09 0200 0000"))])
        #expect(signaling.receive(frame: signal("17 04 0000")) == [.send(signal("01 04 0200 0000"))])
    }

    @Test func malformedRequestIsRejectedAndReported() {
        var signaling = L2CAPSignaling(role: .peripheral)
        let actions = signaling.receive(frame: signal("06 05 0200 4000"))
        #expect(actions.count == 2)
        guard case .peerViolation(.malformedSignal) = actions.first else { Issue.record("\(actions)"); return }
        #expect(actions.last == .send(signal("01 05 0200 0000")))
        // Two commands in one packet: refused the same way.
        #expect(signaling.receive(frame: signal("16 07 0400 4000 0500 16 08 0400 4000 0500")).last == .send(signal("01 07 0200 0000")))
    }

    @Test func malformedResponsesAndIdentifierZeroAreOnlyReported() {
        var signaling = L2CAPSignaling(role: .peripheral)
        let response = signaling.receive(frame: signal("15 01 0200 4000"))
        #expect(response.count == 1)
        let zero = signaling.receive(frame: signal("06 00 0400 4000 4100"))
        #expect(zero.count == 1)
        guard case .peerViolation(.malformedSignal) = zero.first else { Issue.record("\(zero)"); return }
        #expect(signaling.receive(frame: signal("01")).count == 1)
    }

    @Test func packetsAboveTheSignalingMTUAreRejected() {
        var signaling = L2CAPSignaling(role: .peripheral)
        let oversized = L2CAPBasicFrame(channelID: .leSignaling, payload: [0x0A, 0x03, 0x14, 0x00] + [UInt8](repeating: 0, count: 20))
        #expect(signaling.receive(frame: oversized) == [
            .peerViolation(.signalingMTUExceeded(size: 24)),
            .send(signal("01 03 0400 0100 1700")),
        ])
    }

    // MARK: Connection parameter updates

    let validUpdate = "12 03 0800 1800 2800 0000 f401"
    let update = L2CAPConnectionParameterUpdateRequest(intervalMin: .init(rawValue: 24), intervalMax: .init(rawValue: 40),
                                                       latency: 0, timeout: .init(rawValue: 500))

    @Test func centralAcceptsValidUpdates() {
        var signaling = L2CAPSignaling(role: .central)
        #expect(signaling.receive(frame: signal(validUpdate)) == [
            .send(signal("13 03 0200 0000")),
            .updateConnectionParameters(update),
        ])
        // Interval min above max: rejected, no update.
        #expect(signaling.receive(frame: signal("12 04 0800 2800 1800 0000 f401")) == [.send(signal("13 04 0200 0100"))])
    }

    @Test func centralPolicies() {
        var rejecting = L2CAPSignaling(role: .central, connectionParameterUpdatePolicy: .rejectAll)
        #expect(rejecting.receive(frame: signal(validUpdate)) == [.send(signal("13 03 0200 0100"))])
        var asking = L2CAPSignaling(role: .central, connectionParameterUpdatePolicy: .askHost)
        #expect(asking.receive(frame: signal(validUpdate)) == [.connectionParameterUpdateRequested(identifier: 3, request: update)])
        #expect(asking.answerConnectionParameterUpdate(identifier: 3, accepted: true) == [.send(signal("13 03 0200 0000"))])
        #expect(asking.answerConnectionParameterUpdate(identifier: 3, accepted: true) == [])
    }

    @Test func peripheralRejectsUpdateRequestsAsNotUnderstood() {
        var signaling = L2CAPSignaling(role: .peripheral)
        #expect(signaling.receive(frame: signal(validUpdate)) == [.send(signal("01 03 0200 0000"))])
    }

    @Test func peripheralAsksForAnUpdate() throws {
        var signaling = L2CAPSignaling(role: .peripheral)
        #expect(try signaling.requestConnectionParameterUpdate(update) == [.send(signal("12 01 0800 1800 2800 0000 f401"))])
        #expect(signaling.receive(frame: signal("13 01 0200 0100")) == [.connectionParameterUpdateFinished(.answered(.rejected))])
        _ = try signaling.requestConnectionParameterUpdate(update)
        #expect(signaling.receive(frame: signal("01 02 0200 0000")) == [.connectionParameterUpdateFinished(.rejected(.notUnderstood))])
        _ = try signaling.requestConnectionParameterUpdate(update)
        #expect(signaling.timeout(identifier: 3) == [.connectionParameterUpdateFinished(.timedOut)])
        var central = L2CAPSignaling(role: .central)
        #expect(throws: L2CAPRequestError.notAllowedInRole) { try central.requestConnectionParameterUpdate(update) }
    }

    // MARK: Disconnection

    @Test func peerDisconnects() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60))
        // Wrong source CID: discarded (§4.6), channel stays.
        let mismatch = L2CAPDisconnectionRequest(destinationCID: L2CAPChannelID(0x40), sourceCID: L2CAPChannelID(0x61))
        #expect(signaling.receive(frame: signal("06 02 0400 4000 6100")) == [.peerViolation(.disconnectionSourceMismatch(mismatch))])
        #expect(signaling.openChannels == [L2CAPChannelID(0x40)])
        #expect(signaling.receive(frame: signal("06 03 0400 4000 6000")) == [
            .send(signal("07 03 0400 4000 6000")),
            .channelClosed(localCID: L2CAPChannelID(0x40), .remoteRequest),
        ])
        #expect(signaling.openChannels.isEmpty)
        // Unknown destination CID: Command Reject, invalid CID, local then remote.
        #expect(signaling.receive(frame: signal("06 04 0400 4000 6000")) == [.send(signal("01 04 0600 0200 4000 6000"))])
    }

    @Test func localDisconnect() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60))
        let cid = L2CAPChannelID(0x40)
        #expect(try signaling.disconnect(cid) == [
            .channelClosed(localCID: cid, .localRequest),
            .send(signal("06 01 0400 6000 4000")),
        ])
        #expect(throws: L2CAPRequestError.noSuchChannel(cid)) { try signaling.disconnect(cid) }
        // Data for the closing channel is dropped quietly; the CID is not reused yet.
        #expect(signaling.receive(frame: L2CAPBasicFrame(channelID: cid, payload: [1, 0, 1])) == [])
        _ = signaling.receive(frame: connectionRequest(2, source: 0x61))
        #expect(signaling.openChannels == [L2CAPChannelID(0x41)])
        #expect(signaling.receive(frame: signal("07 01 0400 6000 4000")) == [])
        #expect(signaling.pendingIdentifiers.isEmpty)
        _ = signaling.receive(frame: connectionRequest(3, source: 0x62))
        #expect(signaling.openChannels == [L2CAPChannelID(0x40), L2CAPChannelID(0x41)])
    }

    @Test func disconnectionCollision() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60))
        _ = try signaling.disconnect(L2CAPChannelID(0x40))
        #expect(signaling.receive(frame: signal("06 09 0400 4000 6000")) == [.send(signal("07 09 0400 4000 6000"))])
        #expect(signaling.receive(frame: signal("07 01 0400 6000 4000")) == [])
    }

    // MARK: Data and credits

    @Test func sduInAndCreditsBack() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60, credits: 0))
        let cid = L2CAPChannelID(0x40)
        var actions: [Action] = []
        for index in 0..<5 {
            actions = signaling.receive(frame: L2CAPBasicFrame(channelID: cid, payload: [1, 0, UInt8(index)]))
        }
        // The fifth frame uses half of the 10 credits: 5 go back, on this side's CID.
        #expect(actions == [
            .sduReceived(localCID: cid, [4]),
            sends(1, .flowControlCreditIndication(L2CAPFlowControlCreditIndication(cid: cid, credits: 5))),
        ])
    }

    @Test func sendWaitsForCredits() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60, mps: 23, credits: 0))
        let cid = L2CAPChannelID(0x40)
        #expect(try signaling.send(sdu: [1, 2, 3], on: cid) == [])
        #expect(signaling.receive(frame: signal("16 05 0400 6000 0100"))
                == [.send(L2CAPBasicFrame(channelID: L2CAPChannelID(0x60), payload: [3, 0, 1, 2, 3]))])
        #expect(throws: L2CAPRequestError.noSuchChannel(L2CAPChannelID(0x41))) { try signaling.send(sdu: [1], on: L2CAPChannelID(0x41)) }
        #expect(throws: L2CAPRequestError.sduExceedsRemoteMTU(size: 101, mtu: 100)) {
            try signaling.send(sdu: [UInt8](repeating: 0, count: 101), on: cid)
        }
        let unknown = L2CAPFlowControlCreditIndication(cid: L2CAPChannelID(0x7F), credits: 1)
        #expect(signaling.receive(frame: signal("16 06 0400 7f00 0100")) == [.peerViolation(.creditsForUnknownChannel(unknown))])
    }

    @Test func creditOverflowDisconnects() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60, credits: 3))
        let cid = L2CAPChannelID(0x40)
        #expect(signaling.receive(frame: signal("16 05 0400 6000 fdff")) == [
            .channelClosed(localCID: cid, .violation(.creditOverflow(current: 3, added: 65533))),
            .send(signal("06 01 0400 6000 4000")),
        ])
    }

    @Test func kFrameViolationDisconnects() throws {
        var signaling = try server()
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60))
        let cid = L2CAPChannelID(0x40)
        #expect(signaling.receive(frame: L2CAPBasicFrame(channelID: cid, payload: [0x01, 0x02, 1])) == [
            .channelClosed(localCID: cid, .violation(.sduExceedsMTU(sduLength: 513, mtu: 512))),
            .send(signal("06 01 0400 6000 4000")),
        ])
        #expect(signaling.receive(frame: L2CAPBasicFrame(channelID: L2CAPChannelID(0x55), payload: [1, 0, 1]))
                == [.peerViolation(.frameOnUnknownChannel(L2CAPChannelID(0x55)))])
        #expect(signaling.receive(frame: L2CAPBasicFrame(channelID: .att, payload: [1])) == [])
    }

    @Test func linkLossClosesEverything() throws {
        var signaling = try server(.central)
        _ = signaling.receive(frame: connectionRequest(1, source: 0x60))
        let (pending, _) = try signaling.connect(spsm: L2CAPSPSM(0x80), mtu: 100, mps: 100, credits: 1)
        #expect(signaling.linkClosed() == [
            .channelFailed(localCID: pending, .linkClosed),
            .channelClosed(localCID: L2CAPChannelID(0x40), .linkClosed),
        ])
        #expect(signaling.openChannels.isEmpty)
        #expect(signaling.pendingIdentifiers.isEmpty)
    }
}
