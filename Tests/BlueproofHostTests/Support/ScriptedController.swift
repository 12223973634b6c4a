import BlueproofTransport
import BlueproofWire
import Synchronization
import Testing

/// One packet the host sent the scripted controller, decoded.
enum HostPacket: Hashable, Sendable {
    case command(HCICommandPacket)
    case acl(HCIACLPacket)
    /// Anything else (SCO, ISO, a packet that did not decode): kept as it came.
    case other(H4Packet)
}

/// One whole L2CAP PDU the host sent, recombined from its ACL fragments.
struct SentPDU: Hashable, Sendable {
    let handle: UInt16
    /// The fragments as they left, in order.
    let fragments: [HCIACLPacket]
    /// The PDU, basic header included.
    let bytes: [UInt8]

    /// The PDU as a basic frame; nil when its header disagrees with its size.
    var frame: L2CAPBasicFrame? { try? L2CAPBasicFrame(bytes: bytes) }
}

/// How the scripted controller answers one command, instead of its script.
enum ScriptedAnswer: Sendable {
    /// Command Complete with these return parameters (status first).
    case complete([UInt8])
    /// Command Status with this status, and no later event.
    case status(HCIStatus)
    /// No answer at all: the command waits until its timeout.
    case silence
}

/// An in-memory ``HCITransport`` that plays a controller for an ``LEHost`` under test.
///
/// - It records every packet the host sends, decoded (``sentPackets``), and recombines ACL
///   data into the L2CAP PDUs the host sent (``sentPDUs``). Tests wait for them as events:
///   ``outbound()`` and ``pdus()`` replay everything sent so far and then follow live, so a
///   test that subscribes after its trigger misses nothing.
/// - It answers commands at once, as a well-behaved controller would (Command Complete with
///   return parameters for Reset, the event masks, Read BD_ADDR, the buffer sizes, advertising
///   and scanning; Command Status for LE Create Connection, Disconnect and LE Connection Update,
///   followed by the event that reports the outcome where the controller alone decides it).
///   ``setAnswer(_:for:)`` replaces the script for one opcode. Unscripted commands get
///   Command Complete with Unknown HCI Command.
/// - It delivers what a test injects (events, ACL data) to the host in injection order,
///   interleaved with command answers in the order they arose.
/// - ``finish(throwing:)`` plays a controller that vanished: the inbound stream ends with the
///   error, and every later send throws it.
///
/// All state sits behind one `Mutex`, and inbound packets are yielded under it; a command's
/// answers go out before any later injection (both hold `delivery`), so the order the host
/// reads is the order the state recorded. With `offersTap`, the tap sees each inbound packet
/// just before the host's stream does, as on a transport's reader thread.
final class ScriptedController: HCITransport {
    let endpoint: String
    let inbound: AsyncThrowingStream<H4Packet, any Error>
    private let toHost: AsyncThrowingStream<H4Packet, any Error>.Continuation

    /// What LE Read Buffer Size returns: `HC_LE_ACL_Data_Packet_Length` x
    /// `HC_Total_Num_LE_ACL_Data_Packets` (0 x 0 sends the host to Read Buffer Size).
    let leBuffers: (size: UInt16, count: UInt8)
    /// What Read Buffer Size returns (ACL length x count).
    let sharedBuffers: (size: UInt16, count: UInt16)
    /// What Read BD_ADDR returns.
    let address: BDAddress

    private struct Subscribers<Element: Sendable> {
        var history: [Element] = []
        var live: [UInt64: AsyncStream<Element>.Continuation] = [:]

        mutating func publish(_ element: Element) {
            history.append(element)
            for continuation in live.values { continuation.yield(element) }
        }

        mutating func finish() {
            for continuation in live.values { continuation.finish() }
            live.removeAll()
        }
    }

    private struct State {
        var packets = Subscribers<HostPacket>()
        var pdus = Subscribers<SentPDU>()
        /// Fragments of a PDU the host has begun and not finished, per handle.
        var partial: [UInt16: [HCIACLPacket]] = [:]
        var overrides: [HCIOpcode: ScriptedAnswer] = [:]
        /// An LE Create Connection is pending (Command Status given, no LE Connection Complete yet).
        var initiating: (peer: BDAddress, type: LEAddressType)?
        /// Why the link ended; every send after it throws this.
        var ended: TransportError?
        var nextSubscriber: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Whether ``tapInbound(_:)`` is offered, as a transport with a reader thread offers it.
    private let offersTap: Bool
    /// The installed tap: it sees each packet for the host (injected, or a command's answer)
    /// before the host's stream does.
    private let tap = Mutex<InboundTap?>(nil)
    /// Held while a packet goes to the tap and the host, so deliveries keep one order.
    private let delivery = Mutex<Void>(())

    init(leBuffers: (size: UInt16, count: UInt8) = (27, 20),
         sharedBuffers: (size: UInt16, count: UInt16) = (0, 0),
         address: BDAddress = BDAddress("C0:FF:EE:00:00:01")!,
         endpoint: String = "scripted:controller", offersTap: Bool = false) {
        self.offersTap = offersTap
        self.leBuffers = leBuffers
        self.sharedBuffers = sharedBuffers
        self.address = address
        self.endpoint = endpoint
        (inbound, toHost) = AsyncThrowingStream.makeStream(of: H4Packet.self, throwing: (any Error).self)
    }

    // MARK: HCITransport

    /// A command's answers are delivered before any later injection: both hold `delivery`.
    func send(_ packet: H4Packet) throws(TransportError) {
        guard packet.type == .command else {
            _ = try record(packet)
            return
        }
        try delivery.withLock { _ throws(TransportError) in
            for event in try record(packet) { deliverHolding(event.packet.packet) }
        }
    }

    /// Records what the host sent; returns the answers to a command.
    private func record(_ packet: H4Packet) throws(TransportError) -> [HCIEvent] {
        try state.withLock { state throws(TransportError) -> [HCIEvent] in
            if let ended = state.ended { throw ended }
            switch packet.type {
            case .command:
                guard let command = try? HCICommandPacket(payload: packet.payload) else {
                    state.packets.publish(.other(packet))
                    return []
                }
                state.packets.publish(.command(command))
                return answer(command, &state)
            case .acl:
                guard let data = try? HCIACLPacket(payload: packet.payload) else {
                    state.packets.publish(.other(packet))
                    return []
                }
                state.packets.publish(.acl(data))
                recombine(data, &state)
            default:
                state.packets.publish(.other(packet))
            }
            return []
        }
    }

    func close() {
        end(.closed, error: nil)
    }

    func tapInbound(_ tap: @escaping @Sendable (H4Packet) -> Void) -> Bool {
        guard offersTap else { return false }
        return self.tap.withLock { installed in
            guard installed == nil else { return false }
            installed = InboundTap(tap)
            return true
        }
    }

    /// Shows `packet` to the tap, unless the link ended, then yields it to the host, as a
    /// reader thread would: one packet at a time.
    private func deliver(_ packet: H4Packet, noting: (inout State) -> Void = { _ in }) {
        delivery.withLock { _ in deliverHolding(packet, noting: noting) }
    }

    /// ``deliver(_:noting:)`` for a caller that holds `delivery`. The tap runs outside the
    /// state's lock: it may send ACL data (never a command, which would wait for `delivery`).
    private func deliverHolding(_ packet: H4Packet, noting: (inout State) -> Void = { _ in }) {
        guard state.withLock({ $0.ended == nil }) else { return }
        tap.withLock { $0 }?.call(packet)
        state.withLock { state in
            guard state.ended == nil else { return }
            noting(&state)
            toHost.yield(packet)
        }
    }

    // MARK: Playing the controller

    /// Sends `event` to the host.
    func inject(_ event: HCIEvent) {
        deliver(event.packet.packet) { state in
            if case .le(.connectionComplete) = event { state.initiating = nil }
            if case .le(.enhancedConnectionComplete) = event { state.initiating = nil }
        }
    }

    /// Sends one ACL data packet to the host.
    func injectACL(handle: UInt16, pb: HCIACLPacketBoundary, data: [UInt8]) {
        deliver(HCIACLPacket(handle: handle, packetBoundary: pb, data: data).packet)
    }

    /// Sends a whole L2CAP PDU on `channel` to the host in one fragment (first flushable, as
    /// LE controllers send it).
    func injectL2CAP(handle: UInt16, channel: L2CAPChannelID, payload: [UInt8]) {
        let header: [UInt8] = [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8),
                               UInt8(channel.rawValue & 0xFF), UInt8(channel.rawValue >> 8)]
        injectACL(handle: handle, pb: .firstFlushable, data: header + payload)
    }

    /// Sends an ATT PDU from the peer to the host.
    func injectATT(handle: UInt16, _ bytes: [UInt8]) {
        injectL2CAP(handle: handle, channel: .att, payload: bytes)
    }

    /// Number Of Completed Packets for one handle.
    func completePackets(_ count: UInt16, on handle: UInt16) {
        inject(.numberOfCompletedPackets(HCINumberOfCompletedPacketsEvent(handles: [
            .init(connectionHandle: handle, numCompletedPackets: count),
        ])))
    }

    /// LE Connection Complete (success) for a connection in `role`.
    func injectConnection(handle: UInt16, role: HCIConnectionRole,
                          peer: BDAddress = BDAddress("00:AA:01:00:00:23")!, peerType: LEAddressType = .publicDevice) {
        inject(.le(.connectionComplete(HCILEConnectionCompleteEvent(
            status: .success, connectionHandle: handle, role: role, peerAddressType: peerType, peerAddress: peer,
            connectionInterval: LEConnectionInterval(rawValue: 0x0018), peripheralLatency: 0,
            supervisionTimeout: LESupervisionTimeout(rawValue: 0x01F4), centralClockAccuracy: .ppm50))))
    }

    /// Disconnection Complete (success) for `handle`.
    func injectDisconnection(handle: UInt16, reason: HCIStatus = .remoteUserTerminated) {
        inject(.disconnectionComplete(HCIDisconnectionCompleteEvent(status: .success, connectionHandle: handle,
                                                                    reason: reason)))
    }

    /// Replaces the script for `opcode` (nil restores it).
    func setAnswer(_ answer: ScriptedAnswer?, for opcode: HCIOpcode) {
        state.withLock { $0.overrides[opcode] = answer }
    }

    /// The controller goes away: the host's inbound stream ends with `error`, later sends throw it.
    func finish(throwing error: TransportError = .closedByPeer) {
        end(error, error: error)
    }

    private func end(_ reason: TransportError, error: TransportError?) {
        state.withLock { state in
            guard state.ended == nil else { return }
            state.ended = reason
            toHost.finish(throwing: error)
            state.packets.finish()
            state.pdus.finish()
        }
    }

    // MARK: What the host sent

    /// Every packet the host has sent so far.
    var sentPackets: [HostPacket] { state.withLock { $0.packets.history } }

    /// Every ACL data packet the host has sent so far.
    var sentACL: [HCIACLPacket] {
        sentPackets.compactMap { if case let .acl(packet) = $0 { packet } else { nil } }
    }

    /// Every command the host has sent so far.
    var sentCommands: [HCICommandPacket] {
        sentPackets.compactMap { if case let .command(command) = $0 { command } else { nil } }
    }

    /// Every whole L2CAP PDU the host has sent so far.
    var sentPDUs: [SentPDU] { state.withLock { $0.pdus.history } }

    /// Every packet the host sends: those sent so far, then the rest as they come. Finishes
    /// when the link ends.
    func outbound() -> AsyncStream<HostPacket> {
        subscribe(\.packets)
    }

    /// Every whole L2CAP PDU the host sends: those sent so far, then the rest as they come.
    func pdus() -> AsyncStream<SentPDU> {
        subscribe(\.pdus)
    }

    /// The `index`th ACL data packet the host sends (from 0), once it is sent; nil when the link
    /// ends first or the waiting task is cancelled.
    func acl(_ index: Int) async -> HCIACLPacket? {
        var seen = 0
        for await case let .acl(packet) in outbound() {
            if seen == index { return packet }
            seen += 1
        }
        return nil
    }

    /// The `index`th whole L2CAP PDU the host sends (from 0), once it is complete.
    func pdu(_ index: Int) async -> SentPDU? {
        var seen = 0
        for await pdu in pdus() {
            if seen == index { return pdu }
            seen += 1
        }
        return nil
    }

    /// The first command with `opcode` the host sends, once it is sent.
    func command(_ opcode: HCIOpcode) async -> HCICommandPacket? {
        for await case let .command(command) in outbound() where command.opcode == opcode {
            return command
        }
        return nil
    }

    private func subscribe<Element: Sendable>(_ path: WritableKeyPath<State, Subscribers<Element>> & Sendable) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        state.withLock { state in
            for element in state[keyPath: path].history { continuation.yield(element) }
            guard state.ended == nil else {
                continuation.finish()
                return
            }
            state.nextSubscriber += 1
            let id = state.nextSubscriber
            state[keyPath: path].live[id] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0[keyPath: path].live.removeValue(forKey: id) }
            }
        }
        return stream
    }

    // MARK: Script

    /// Recombines the host's ACL data into PDUs (the host fragments with first
    /// non-flushable, then continuing). Data that breaks the rules is recorded as an issue.
    private func recombine(_ packet: HCIACLPacket, _ state: inout State) {
        var fragments = state.partial.removeValue(forKey: packet.handle) ?? []
        if packet.packetBoundary.startsPDU {
            if !fragments.isEmpty {
                Issue.record("the host started a PDU on 0x\(hex(packet.handle)) before finishing the last one")
            }
            fragments = [packet]
        } else if packet.packetBoundary == .continuing, !fragments.isEmpty {
            fragments.append(packet)
        } else {
            Issue.record("the host sent \(packet.packetBoundary) data on 0x\(hex(packet.handle)) with no PDU started")
            return
        }
        let bytes = fragments.flatMap(\.data)
        guard let expected = L2CAPBasicFrame.expectedLength(ofPrefix: bytes), bytes.count >= expected else {
            state.partial[packet.handle] = fragments
            return
        }
        if bytes.count > expected {
            Issue.record("the host sent \(bytes.count) octets on 0x\(hex(packet.handle)) where the header declares \(expected)")
        }
        state.pdus.publish(SentPDU(handle: packet.handle, fragments: fragments, bytes: bytes))
    }

    /// The events that answer `command`, in order.
    private func answer(_ command: HCICommandPacket, _ state: inout State) -> [HCIEvent] {
        let opcode = command.opcode
        if let override = state.overrides[opcode] {
            switch override {
            case let .complete(returnParameters): return [complete(opcode, returnParameters)]
            case let .status(status): return [commandStatus(opcode, status)]
            case .silence: return []
            }
        }
        switch opcode {
        case HCIReset.opcode, HCISetEventMask.opcode, HCILESetEventMask.opcode,
             HCILESetAdvertisingParameters.opcode, HCILESetAdvertisingData.opcode, HCILESetScanResponseData.opcode,
             HCILESetAdvertisingEnable.opcode, HCILESetScanParameters.opcode, HCILESetScanEnable.opcode:
            return [complete(opcode, [HCIStatus.success.rawValue])]
        case HCIReadBDADDR.opcode:
            return [complete(opcode, encoded(HCIReadBDADDR.ReturnParameters(bdAddr: address)))]
        case HCIReadLocalSupportedCommands.opcode:
            // The legacy commands it answers, so the host picks the legacy command set.
            let supported = HCISupportedCommands(supporting: [
                HCILESetAdvertisingParameters.opcode, HCILESetScanParameters.opcode, HCILECreateConnection.opcode])
            return [complete(opcode, encoded(HCIReadLocalSupportedCommands.ReturnParameters(supportedCommands: supported)))]
        case HCILEReadBufferSize.opcode:
            return [complete(opcode, encoded(HCILEReadBufferSize.ReturnParameters(
                leACLDataPacketLength: leBuffers.size, totalNumLEACLDataPackets: leBuffers.count)))]
        case HCIReadBufferSize.opcode:
            return [complete(opcode, encoded(HCIReadBufferSize.ReturnParameters(
                aclDataPacketLength: sharedBuffers.size, synchronousDataPacketLength: 0,
                totalNumACLDataPackets: sharedBuffers.count, totalNumSynchronousDataPackets: 0)))]
        case HCILECreateConnection.opcode:
            guard state.initiating == nil, let create = try? command.decode(as: HCILECreateConnection.self) else {
                return [commandStatus(opcode, .commandDisallowed)]
            }
            // The outcome (LE Connection Complete) is the test's to inject.
            state.initiating = (create.peerAddress, create.peerAddressType)
            return [commandStatus(opcode, .success)]
        case HCILECreateConnectionCancel.opcode:
            // §7.8.13: a cancelled attempt ends with LE Connection Complete, Unknown Connection Identifier.
            guard let attempt = state.initiating else { return [complete(opcode, [HCIStatus.commandDisallowed.rawValue])] }
            state.initiating = nil
            return [complete(opcode, [HCIStatus.success.rawValue]),
                    .le(.connectionComplete(HCILEConnectionCompleteEvent(
                        status: .unknownConnectionIdentifier, connectionHandle: 0, role: .central,
                        peerAddressType: attempt.type, peerAddress: attempt.peer,
                        connectionInterval: LEConnectionInterval(rawValue: 0), peripheralLatency: 0,
                        supervisionTimeout: LESupervisionTimeout(rawValue: 0), centralClockAccuracy: .ppm500)))]
        case HCIDisconnect.opcode:
            guard let disconnect = try? command.decode(as: HCIDisconnect.self) else {
                return [commandStatus(opcode, .invalidParameters)]
            }
            return [commandStatus(opcode, .success),
                    .disconnectionComplete(HCIDisconnectionCompleteEvent(
                        status: .success, connectionHandle: disconnect.connectionHandle, reason: .localHostTerminated))]
        case HCILEConnectionUpdate.opcode:
            guard let update = try? command.decode(as: HCILEConnectionUpdate.self) else {
                return [commandStatus(opcode, .invalidParameters)]
            }
            return [commandStatus(opcode, .success),
                    .le(.connectionUpdateComplete(HCILEConnectionUpdateCompleteEvent(
                        status: .success, connectionHandle: update.connectionHandle,
                        connectionInterval: update.connectionIntervalMax, peripheralLatency: update.maxLatency,
                        supervisionTimeout: update.supervisionTimeout)))]
        default:
            return [complete(opcode, [HCIStatus.unknownCommand.rawValue])]
        }
    }

    private func complete(_ opcode: HCIOpcode, _ returnParameters: [UInt8]) -> HCIEvent {
        .commandComplete(HCICommandCompleteEvent(numHCICommandPackets: 1, commandOpcode: opcode,
                                                 returnParameters: returnParameters))
    }

    private func commandStatus(_ opcode: HCIOpcode, _ status: HCIStatus) -> HCIEvent {
        .commandStatus(HCICommandStatusEvent(status: status, numHCICommandPackets: 1, commandOpcode: opcode))
    }

    private func encoded(_ returnParameters: some HCIReturnParameters) -> [UInt8] {
        var writer = ByteWriter()
        returnParameters.encode(into: &writer)
        return writer.bytes
    }
}
