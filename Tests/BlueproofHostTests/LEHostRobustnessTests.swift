import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Testing

/// A controller or peer that breaks the rules gets a typed error or a violation and a log
/// line from the LE host, never a crash or a hang; the host goes on serving the connection.
///
/// Every test runs an ``LEHost`` on a ``ScriptedController`` and waits for events (packets the
/// host sends, log lines, stream elements), never for time. What the host writes while it
/// handles one call or one inbound packet is written before that handling ends, so counting
/// the packets sent right after such a point is exact.
@Suite("LE host robustness", .timeLimit(.minutes(5)))
struct LEHostRobustnessTests {
    static let handle: UInt16 = 0x0040
    /// Exchange MTU Request offering 517, and the host's answer (its receive MTU is 517).
    static let exchangeMTURequest: [UInt8] = [0x02, 0x05, 0x02]
    static let exchangeMTUResponse = ATTPDU.exchangeMTUResponse(serverRxMTU: 517)

    // MARK: ACL flow control

    @Test("Number Of Completed Packets beyond what is in flight: one violation, credits not over-counted", arguments: [false, true])
    func completedBeyondInFlight(readerThread: Bool) async throws {
        try await withRig(offersTap: readerThread, leBuffers: (27, 1)) { rig in
            let connection = try await rig.open()
            let client = rig.host.gattClient(for: connection)
            try await client.writeWithoutResponse(handle: 0x0003, value: [1])
            #expect(rig.controller.sentACL.count == 1)

            // 3 completed with 1 in flight: the one frees its buffer, the excess is refused.
            rig.controller.completePackets(3, on: Self.handle)
            let line = try #require(await rig.log.line(containing: "Number Of Completed Packets reported 3"))
            #expect(line.contains("0x0040") && line.contains("only 1 in flight"))
            #expect(await rig.host.violations == [line])

            // One buffer is free: the next PDU leaves at once, the one after waits for it.
            try await client.writeWithoutResponse(handle: 0x0003, value: [2])
            #expect(rig.controller.sentACL.count == 2)
            try await client.writeWithoutResponse(handle: 0x0003, value: [3])
            #expect(rig.controller.sentACL.count == 2, "a buffer counted free twice let a PDU out early")

            rig.controller.completePackets(1, on: Self.handle)
            let third = try #require(await rig.controller.pdu(2))
            #expect(try att(third) == .writeCommand(attributeHandle: 0x0003, attributeValue: [3]))
            #expect(rig.controller.sentACL.count == 3)
            #expect(await rig.host.violations == [line])
        }
    }

    @Test("Number Of Completed Packets for an unknown handle: violation, nothing freed", arguments: [false, true])
    func completedForUnknownHandle(readerThread: Bool) async throws {
        try await withRig(offersTap: readerThread, leBuffers: (27, 1)) { rig in
            let connection = try await rig.open()
            rig.controller.completePackets(2, on: 0x0ABC)
            let line = try #require(await rig.log.line(containing: "handle 0x0abc"))
            #expect(line.contains("Number Of Completed Packets for a connection that is not open"))
            #expect(await rig.host.violations == [line])

            // The only buffer is still free (and only one): an answer leaves, the next waits.
            let client = rig.host.gattClient(for: connection)
            try await client.writeWithoutResponse(handle: 0x0003, value: [1])
            try await client.writeWithoutResponse(handle: 0x0003, value: [2])
            #expect(rig.controller.sentACL.count == 1)
            rig.controller.completePackets(1, on: Self.handle)
            #expect(await rig.controller.acl(1) != nil)
        }
    }

    @Test("ACL data for an unknown handle: violation, dropped unanswered")
    func dataForUnknownHandle() async throws {
        try await withRig { rig in
            _ = try await rig.open()
            rig.controller.injectATT(handle: 0x0123, [0x0A, 0x03, 0x00])
            let line = try #require(await rig.log.line(containing: "ACL data for unknown handle 0x0123"))
            #expect(await rig.host.violations == [line])
            #expect(rig.controller.sentACL.isEmpty)

            // The open connection is untouched: its first answer is to its own request.
            try await rig.expectRecovery(pduIndex: 0)
        }
    }

    // MARK: L2CAP lengths

    /// Inbound data whose L2CAP basic header does not add up.
    enum BrokenLength: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// One start fragment holding a Read Request and one octet past the declared length.
        case longerInOneFragment
        /// The same, the surplus arriving in a continuing fragment.
        case longerAcrossFragments
        /// A continuing fragment with no PDU started.
        case continuationWithoutStart

        var testDescription: String { rawValue }

        var fragments: [(HCIACLPacketBoundary, [UInt8])] {
            switch self {
            case .longerInOneFragment:
                [(.firstFlushable, [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00, 0xEE])]
            case .longerAcrossFragments:
                [(.firstFlushable, [0x03, 0x00, 0x04, 0x00, 0x0A]), (.continuing, [0x03, 0x00, 0xEE])]
            case .continuationWithoutStart:
                [(.continuing, [0x0A, 0x03, 0x00])]
            }
        }

        var logged: String {
            switch self {
            case .longerInOneFragment, .longerAcrossFragments: "8 octets received where the basic header declares 7"
            case .continuationWithoutStart: "continuing fragment of 3 octet(s) with no PDU started"
            }
        }
    }

    @Test("An L2CAP length that does not add up: violation, dropped, the next PDU is answered",
          arguments: BrokenLength.allCases)
    func brokenLength(_ broken: BrokenLength) async throws {
        try await withRig { rig in
            try await rig.host.serve(KnownDatabase.definitions)
            _ = try await rig.open()
            for (boundary, data) in broken.fragments {
                rig.controller.injectACL(handle: Self.handle, pb: boundary, data: data)
            }
            let line = try #require(await rig.log.line(containing: broken.logged))
            #expect(line.contains("0x0040"))
            #expect(await rig.host.violations == [line])
            // The Read Request inside was not answered: the first answer is to the next request.
            try await rig.expectRecovery(pduIndex: 0)
        }
    }

    @Test("A whole PDU that cuts into an incomplete one: violation, and it is still answered")
    func wholeStartCuttingIn() async throws {
        try await withRig { rig in
            try await rig.host.serve(KnownDatabase.definitions)
            _ = try await rig.open()
            // A Write Request declaring 16 octets, of which 2 came.
            rig.controller.injectACL(handle: Self.handle, pb: .firstFlushable, data: [0x10, 0x00, 0x04, 0x00, 0x12, 0x0D])
            // A whole Read Request of the Device Name starts before it finished. The Exchange MTU
            // Request after it is answered either way: were the read dropped, its answer would
            // come first.
            rig.controller.injectATT(handle: Self.handle, [0x0A, 0x03, 0x00])
            rig.controller.injectATT(handle: Self.handle, Self.exchangeMTURequest)

            let read = try #require(await rig.controller.pdu(0))
            try #require(try att(read) == .readResponse(attributeValue: Array("blueproof".utf8)))
            let exchanged = try #require(await rig.controller.pdu(1))
            #expect(try att(exchanged) == Self.exchangeMTUResponse)
            let violations = await rig.host.violations
            #expect(violations.count == 1)
            #expect(violations.first?.contains("a new PDU started while one was incomplete (6 of 20 octets)") == true)
            #expect(rig.log.lines.contains { $0.level == .warning && $0.message == violations.first })
        }
    }

    // MARK: Fragmentation

    @Test("A 100-octet notification leaves in 4 fragments of 27, at most 2 before a completion", arguments: [false, true])
    func notificationFragmented(readerThread: Bool) async throws {
        try await withRig(offersTap: readerThread, leBuffers: (27, 2)) { rig in
            try await rig.host.serve(KnownDatabase.definitions)
            let connection = try await rig.open()
            // The client raises ATT_MTU and subscribes to 0x2A37 (value 0x000C, CCCD 0x000D).
            rig.controller.injectATT(handle: Self.handle, Self.exchangeMTURequest)
            let exchanged = try #require(await rig.controller.pdu(0))
            #expect(try att(exchanged) == Self.exchangeMTUResponse)
            rig.controller.completePackets(1, on: Self.handle)
            rig.controller.injectATT(handle: Self.handle, [0x12, 0x0D, 0x00, 0x01, 0x00])
            let subscribed = try #require(await rig.controller.pdu(1))
            #expect(try att(subscribed) == .writeResponse)
            rig.controller.completePackets(1, on: Self.handle)
            try await rig.sync(connection)
            #expect(await rig.host.attMTU(on: connection) == 517)

            let value = (0..<100).map { UInt8($0) }
            #expect(try await rig.host.notify(value, of: 0x000C, to: connection))
            // Both buffers are taken by the first two fragments; the rest wait.
            let early = Array(rig.controller.sentACL.dropFirst(2))
            #expect(early.map(\.packetBoundary) == [.firstNonFlushable, .continuing])
            #expect(early.map(\.data.count) == [27, 27])
            #expect(rig.controller.sentPDUs.count == 2)

            rig.controller.completePackets(2, on: Self.handle)
            let notification = try #require(await rig.controller.pdu(2))
            #expect(notification.fragments.map(\.packetBoundary) == [.firstNonFlushable, .continuing, .continuing, .continuing])
            #expect(notification.fragments.map(\.data.count) == [27, 27, 27, 26])
            #expect(notification.fragments.allSatisfy { $0.handle == Self.handle })
            #expect(try att(notification) == .handleValueNotification(attributeHandle: 0x000C, attributeValue: value))
            #expect(rig.controller.sentACL.count == 6)
            #expect(await rig.host.violations.isEmpty)
        }
    }

    @Test("A notification one byte over ATT_MTU - 3 throws valueTooLong naming the limit; nothing is sent, nothing cut")
    func oversizeNotificationRefused() async throws {
        try await withRig { rig in
            try await rig.host.serve(KnownDatabase.definitions)
            let connection = try await rig.open()
            rig.controller.injectATT(handle: Self.handle, [0x12, 0x0D, 0x00, 0x01, 0x00])
            let subscribed = try #require(await rig.controller.pdu(0))
            #expect(try att(subscribed) == .writeResponse)
            rig.controller.completePackets(1, on: Self.handle)
            try await rig.sync(connection)
            let before = rig.controller.sentPDUs.count
            await #expect(throws: LEHostError.valueTooLong(length: 21, maximum: 20)) {
                try await rig.host.notify(Array(repeating: 1, count: 21), of: 0x000C, to: connection)
            }
            #expect(rig.controller.sentPDUs.count == before)
            #expect(try await rig.host.notify(Array(repeating: 1, count: 20), of: 0x000C, to: connection))
        }
    }

    // MARK: ATT

    @Test("A malformed ATT request gets Error Response Invalid PDU")
    func malformedATTRequest() async throws {
        try await withRig { rig in
            try await rig.host.serve(KnownDatabase.definitions)
            _ = try await rig.open()
            // A Read Request one octet short.
            rig.controller.injectATT(handle: Self.handle, [0x0A, 0x03])
            let answer = try att(try #require(await rig.controller.pdu(0)))
            #expect(answer == .errorResponse(requestOpcodeInError: .readRequest, attributeHandleInError: 0, errorCode: .invalidPDU))
            let violations = await rig.host.violations
            #expect(violations.count == 1)
            #expect(violations.first?.hasPrefix("ATT on 0x0040: malformed") == true)
            try await rig.expectRecovery(pduIndex: 1)
        }
    }

    @Test("An unknown ATT request opcode gets Request Not Supported")
    func unknownATTRequest() async throws {
        try await withRig { rig in
            try await rig.host.serve(KnownDatabase.definitions)
            _ = try await rig.open()
            // 0x3F: no such method, command flag clear, so a request (Vol 3, Part F §3.3.1).
            rig.controller.injectATT(handle: Self.handle, [0x3F, 0x01, 0x02])
            let answer = try att(try #require(await rig.controller.pdu(0)))
            #expect(answer == .errorResponse(requestOpcodeInError: ATTOpcode(rawValue: 0x3F), attributeHandleInError: 0,
                                             errorCode: .requestNotSupported))
            try await rig.expectRecovery(pduIndex: 1)
            #expect(await rig.host.violations.isEmpty)
        }
    }

    @Test("An ATT response with no request outstanding is a violation, and unanswered")
    func unsolicitedATTResponse() async throws {
        try await withRig { rig in
            _ = try await rig.open()
            rig.controller.injectATT(handle: Self.handle, [0x0B, 0x01, 0x02])
            let line = try #require(await rig.log.line(containing: "ATT on 0x0040: unexpected response"))
            #expect(await rig.host.violations == [line])
            try await rig.expectRecovery(pduIndex: 0)
        }
    }

    // MARK: L2CAP signaling and SMP

    @Test("An unknown signaling code gets Command Reject, not understood, with its identifier")
    func unknownSignalingCode() async throws {
        try await withRig { rig in
            _ = try await rig.open()
            rig.controller.injectL2CAP(handle: Self.handle, channel: .leSignaling,
                                       payload: [0x1F, 0x2A, 0x02, 0x00, 0xAB, 0xCD])
            let frame = try #require(await rig.controller.pdu(0)?.frame)
            #expect(frame.channelID == .leSignaling)
            let signal = try L2CAPSignal(payload: frame.payload)
            #expect(signal.identifier == 0x2A)
            #expect(signal.command == .commandReject(.notUnderstood))
            try await rig.expectRecovery(pduIndex: 1)
        }
    }

    @Test("An SMP Pairing Request gets Pairing Failed, Pairing Not Supported")
    func pairingRefused() async throws {
        try await withRig { rig in
            _ = try await rig.open()
            // IO capability NoInputNoOutput, no OOB, bonding, key size 16, all keys both ways.
            rig.controller.injectL2CAP(handle: Self.handle, channel: .smp,
                                       payload: [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07])
            let frame = try #require(await rig.controller.pdu(0)?.frame)
            #expect(frame.channelID == .smp)
            #expect(frame.payload == [0x05, 0x05])
            #expect(try SMPCommand(payload: frame.payload) == .pairingFailed(.pairingNotSupported))
            try await rig.expectRecovery(pduIndex: 1)
        }
    }

    // MARK: Credit-based channels

    @Test("A K-frame for a channel that does not exist: violation, dropped")
    func kFrameOnUnknownChannel() async throws {
        try await withRig { rig in
            _ = try await rig.open()
            rig.controller.injectL2CAP(handle: Self.handle, channel: L2CAPChannelID(0x0050), payload: [0x01, 0x00, 0x61])
            let line = try #require(await rig.log.line(containing: "K-frame on unknown channel"))
            #expect(line.contains("0x0040"))
            #expect(await rig.host.violations == [line])
            try await rig.expectRecovery(pduIndex: 0)
        }
    }

    @Test("A K-frame beyond the channel's MPS: violation, the channel closes, its waiters end")
    func kFrameBeyondMPS() async throws {
        try await withRig { rig in
            let channel = try await rig.acceptChannel()
            let accepted = try L2CAPSignal(payload: #require(await rig.controller.pdu(0)?.frame).payload)
            guard case let .leCreditBasedConnectionResponse(response) = accepted.command else {
                Issue.record("expected LE Credit Based Connection Response, got \(accepted)")
                return
            }
            #expect(accepted.identifier == 0x07 && response.result == .successful)
            #expect(response.destinationCID == channel.local.cid)

            let sdus = await rig.host.incomingSDUs(on: channel)
            rig.controller.injectL2CAP(handle: Self.handle, channel: channel.local.cid, payload: [0x03, 0x00, 0x61, 0x62, 0x63])
            rig.controller.injectL2CAP(handle: Self.handle, channel: channel.local.cid,
                                       payload: [0x1C, 0x00] + [UInt8](repeating: 0xEE, count: 28))
            var received: [[UInt8]] = []
            for await sdu in sdus { received.append(sdu) }
            #expect(received == [Array("abc".utf8)], "the SDU stream did not end with the channel")

            let line = try #require(await rig.log.line(containing: "L2CAP channel \(channel.local.cid)"))
            #expect(await rig.host.violations == [line])
            let disconnect = try L2CAPSignal(payload: #require(await rig.controller.pdu(1)?.frame).payload)
            #expect(disconnect.command == .disconnectionRequest(L2CAPDisconnectionRequest(
                destinationCID: L2CAPChannelID(0x0041), sourceCID: channel.local.cid)))
            let error = await #expect(throws: LEHostError.self) { try await rig.host.send([1], on: channel) }
            #expect(error == .channelClosed(cid: channel.local.cid))
            try await rig.expectRecovery(pduIndex: 2)
        }
    }

    // MARK: Connections

    @Test("LE Connection Complete for a handle already open: violation, the old connection ends, the new one is served", arguments: [false, true])
    func handleReusedUnreported(readerThread: Bool) async throws {
        try await withRig(offersTap: readerThread) { rig in
            let old = try await rig.open()
            // btvirt gives a handle again, with no Disconnection Complete, when the peer's controller went away.
            let new = try await rig.open()
            let line = try #require(await rig.log.line(containing: "which is already open"))
            #expect(await rig.host.violations == [line])
            #expect(old.endReason == .unknownConnectionIdentifier, "the old connection was left open")
            #expect(new.endReason == nil && old != new)
            #expect(await rig.host.connections == [new])
            // Disconnecting the old one must not end the new one, which has its handle now.
            try await rig.host.disconnect(old)
            #expect(!rig.controller.sentCommands.contains { $0.opcode == .disconnect }, "HCI Disconnect sent for the reused handle")
            try await rig.expectRecovery(pduIndex: 0)
        }
    }

    // MARK: ATT transaction timeout

    @Test("No ATT response within 30 s: the request fails, the bearer closes, later requests fail at once")
    func attTransactionTimeout() async throws {
        let clock = ManualClock()
        try await withRig(clock: clock) { rig in
            let connection = try await rig.open()
            let client = rig.host.gattClient(for: connection)
            let read = Task { try await client.read(handle: 0x0003) }
            _ = try #require(await rig.controller.pdu(0))
            await clock.waitForSleepers()

            clock.advance(by: .seconds(29))
            #expect(clock.sleeperCount == 1, "the transaction timer fired before 30 s")
            clock.advance(by: .seconds(1))
            let error = await #expect(throws: LEHostError.self) { try await read.value }
            #expect(error == .peerTimedOut(what: "ATT response", limit: .seconds(30)))
            let line = try #require(await rig.log.line(containing: "ATT transaction timed out"))
            #expect(line.contains("0x0040"))

            // Vol 3, Part F §3.3.3: no more PDUs on this bearer.
            let later = await #expect(throws: LEHostError.self) { try await client.read(handle: 0x0005) }
            #expect(later == .peerTimedOut(what: "ATT response (an earlier transaction timed out)", limit: .seconds(30)))
            #expect(rig.controller.sentACL.count == 1)
        }
    }

    // MARK: Links that end

    @Test("Disconnection Complete while a GATT request waits: it fails with disconnected", arguments: [false, true])
    func disconnectionFailsWaitingRequest(readerThread: Bool) async throws {
        try await withRig(offersTap: readerThread) { rig in
            let connection = try await rig.open()
            let client = rig.host.gattClient(for: connection)
            let read = Task { try await client.read(handle: 0x0003) }
            let request = try #require(await rig.controller.pdu(0))
            #expect(try att(request) == .readRequest(attributeHandle: 0x0003))

            rig.controller.injectDisconnection(handle: Self.handle, reason: .remoteUserTerminated)
            let error = await #expect(throws: LEHostError.self) { try await read.value }
            #expect(error == .disconnected(handle: Self.handle, reason: .remoteUserTerminated))
            #expect(await rig.host.waitForDisconnection(connection) == .remoteUserTerminated)
            #expect(await rig.host.connections.isEmpty)
            #expect(await rig.host.violations.isEmpty)
        }
    }

    @Test("The controller link closing while connect waits: it fails with controllerGone")
    func controllerGoneFailsConnect() async throws {
        // A clock that never moves: only the link's end can end the attempt.
        try await withRig(clock: FrozenClock()) { rig in
            let host = rig.host
            let attempt = Task {
                try await host.connect(to: BDAddress("00:AA:01:00:00:23")!, type: .publicDevice)
            }
            #expect(await rig.controller.command(HCILECreateConnection.opcode) != nil)
            rig.controller.finish(throwing: .closedByPeer)

            let error = await #expect(throws: LEHostError.self) { try await attempt.value }
            guard case .command(.controllerGone)? = error else {
                Issue.record("expected .command(.controllerGone), got \(String(describing: error))")
                return
            }
            #expect(rig.controller.sentCommands.map(\.opcode).last == HCILECreateConnection.opcode,
                    "the attempt ended by a timeout, not by the link's end")
        }
    }
}

// MARK: - Rig

/// A started ``LEHost`` on a ``ScriptedController``, its log recorded.
struct Rig {
    let controller: ScriptedController
    let log: LogRecorder
    let host: LEHost

    /// Opens a connection in which the host is peripheral (LE Connection Complete, as after
    /// advertising) and returns it once the host has taken it.
    func open(handle: UInt16 = LEHostRobustnessTests.handle) async throws -> LEConnection {
        let incoming = await host.incomingConnections()
        controller.injectConnection(handle: handle, role: .peripheral)
        return try #require(await incoming.first { $0.handle == handle })
    }

    /// Returns once the host has handled everything injected before: a notification from the
    /// peer comes through the same ordered inbound path and answers nothing.
    func sync(_ connection: LEConnection) async throws {
        let notifications = await host.notifications(on: connection)
        controller.injectATT(handle: connection.handle, [0x1B, 0xFF, 0xFF, 0x5C])
        #expect(await notifications.first { $0.handle == 0xFFFF } != nil)
    }

    /// The peer sends a well-formed Exchange MTU Request; the host's `pduIndex`th PDU must be
    /// its Exchange MTU Response.
    func expectRecovery(handle: UInt16 = LEHostRobustnessTests.handle, pduIndex: Int,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        controller.injectATT(handle: handle, LEHostRobustnessTests.exchangeMTURequest)
        let answer = try #require(await controller.pdu(pduIndex), sourceLocation: sourceLocation)
        #expect(answer.handle == handle, sourceLocation: sourceLocation)
        #expect(try att(answer) == LEHostRobustnessTests.exchangeMTUResponse, sourceLocation: sourceLocation)
    }
}

/// Runs `body` on a started rig and closes it afterwards, also when `body` throws.
/// With `offersTap`, the controller offers the inbound tap a transport with a reader thread
/// offers, and the host counts completions there (``ACLScheduler``).
func withRig(offersTap: Bool = false, leBuffers: (size: UInt16, count: UInt8) = (27, 8),
             clock: any Clock<Duration> = ContinuousClock(), _ body: (Rig) async throws -> Void) async throws {
    let controller = ScriptedController(leBuffers: leBuffers, offersTap: offersTap)
    let log = LogRecorder()
    let host = LEHost(controller: HCIController(transport: controller, logger: log.logger(label: "hci")),
                      clock: clock, logger: log.logger(label: "host"))
    try await host.start()
    let buffers = await host.aclBuffers
    #expect(buffers.size == Int(leBuffers.size) && buffers.count == Int(leBuffers.count))
    let rig = Rig(controller: controller, log: log, host: host)
    do {
        try await body(rig)
    } catch {
        await host.close()
        throw error
    }
    await host.close()
}

/// The ATT PDU a sent PDU carries; throws when it is not on the ATT channel or does not decode.
func att(_ pdu: SentPDU) throws -> ATTPDU {
    let frame = try #require(pdu.frame)
    try #require(frame.channelID == .att, "PDU on \(frame.channelID), not ATT")
    return try ATTPDU(bytes: frame.payload)
}
