import BlueproofAsync
import BlueproofHost
import BlueproofTestSupport
import BlueproofTransfer
import BlueproofWire
import Synchronization
import Testing

/// The transfer sample's peripheral (``TransferPeripheral``) on a ``ScriptedController``: the
/// test plays the controller and the central, decides when packets are completed, and runs
/// the role's timeouts on a ``ManualClock`` (issue 14, "Transfer roles"). A payload of 100
/// bytes at ATT_MTU 23 goes as 5 notifications of 20 bytes and "EOM", each one ACL packet.
@Suite("Transfer peripheral on a scripted controller", .timeLimit(.minutes(3)))
struct TransferPeripheralRigTests {
    static let payload = (0..<100).map { UInt8($0) }
    static let handle = LEHostRobustnessTests.handle

    /// The peripheral running on `rig`, subscribed to by a central on `handle`, with every
    /// notification handed to the controller (none completed yet): `pdus` PDUs sent so far.
    struct Subscribed {
        let events: EventTap
        let clock: ManualClock
        let valueHandle: UInt16
        let configurationHandle: UInt16
        let pdus: Int
    }

    /// At ATT_MTU 23 (5 chunks of 20 bytes and EOM after the Write Response: 7 PDUs), or after
    /// an exchange to 517 (the Exchange MTU Response, the Write Response, one chunk, EOM: 4).
    static func subscribed(_ rig: Rig, exchangeMTU: Bool = false) async throws -> Subscribed {
        let clock = ManualClock()
        let events = EventTap(TransferPeripheral(host: rig.host, clock: clock).run(.send(payload)))
        _ = try await events.next { if case .advertising = $0 { true } else { false } }
        let characteristic = try #require(await rig.host.gattDatabase?.characteristic(uuid: TransferProfile.sampleCharacteristic))
        let configuration = try #require(characteristic.configurationHandle)
        _ = try await rig.open(handle: handle)
        if exchangeMTU { rig.controller.injectATT(handle: handle, LEHostRobustnessTests.exchangeMTURequest) }
        rig.controller.injectATT(handle: handle, [0x12] + le(configuration) + [0x01, 0x00])
        _ = try await events.next { if case .ready = $0 { true } else { false } }
        let pdus = exchangeMTU ? 4 : 7
        let last = try #require(await rig.controller.pdu(pdus - 1))
        #expect(try att(last) == .handleValueNotification(attributeHandle: characteristic.valueHandle,
                                                          attributeValue: Array("EOM".utf8)))
        return Subscribed(events: events, clock: clock, valueHandle: characteristic.valueHandle,
                          configurationHandle: configuration, pdus: pdus)
    }

    @Test("a disconnection before the last chunk was completed fails at once, naming the bytes completed")
    func disconnectionMidTransfer() async throws {
        try await withRig(leBuffers: (27, 20)) { rig in
            let peripheral = try await Self.subscribed(rig)
            // The Write Response and the first two chunks are completed; then the central leaves.
            rig.controller.completePackets(3, on: Self.handle)
            rig.controller.injectDisconnection(handle: Self.handle)
            // Nothing moves the role's clock: only the disconnection can end the transfer.
            let outcome = try await peripheral.events.outcome()
            #expect(outcome == .failure(.disconnected(reason: .remoteUserTerminated, bytes: 40)))
        }
    }

    @Test("the elapsed time runs to the completion of EOM; the peripheral stays until the central unsubscribes and leaves")
    func completionTimingAndDeparture() async throws {
        try await withRig(leBuffers: (27, 20)) { rig in
            let peripheral = try await Self.subscribed(rig)
            // Handed over at once, on the air for 4 s.
            peripheral.clock.advance(by: .seconds(4))
            rig.controller.completePackets(7, on: Self.handle)
            let writeBack: [UInt8] = [9, 8, 7]
            rig.controller.injectATT(handle: Self.handle, [0x52] + le(peripheral.valueHandle) + writeBack)
            let reply = try await peripheral.events.next("the reply") { if case .reply = $0 { true } else { false } }
            #expect(reply == .reply(writeBack))
            rig.controller.injectATT(handle: Self.handle, [0x12] + le(peripheral.configurationHandle) + [0x00, 0x00])
            _ = try await peripheral.events.next("unsubscribed") { if case .unsubscribed = $0 { true } else { false } }
            rig.controller.injectDisconnection(handle: Self.handle)
            let summary = try await peripheral.events.outcome().get()
            #expect(summary.bytes == 100 && summary.chunks == 5)
            #expect(summary.elapsed == .seconds(4), "elapsed from the first chunk handed over to EOM completed")
            #expect(summary.reply == writeBack)
            #expect(summary.sha256 == SHA256.hex(Self.payload))
            #expect(peripheral.events.seen.contains(.disconnected(reason: .remoteUserTerminated)))
            #expect(!rig.controller.sentCommands.contains { $0.opcode == HCIDisconnect.opcode },
                    "the peripheral disconnected the central itself")
        }
    }

    @Test("a central that never leaves: the wait ends after the idle timeout, naming what it waited for")
    func centralThatStays() async throws {
        try await withRig(leBuffers: (27, 20)) { rig in
            let peripheral = try await Self.subscribed(rig)
            rig.controller.completePackets(7, on: Self.handle)
            rig.controller.injectATT(handle: Self.handle, [0x52] + le(peripheral.valueHandle) + [1])
            _ = try await peripheral.events.next { if case .reply = $0 { true } else { false } }
            // The only timer left is the wait for the central's departure.
            await peripheral.clock.waitForSleepers(1)
            peripheral.clock.advance(by: TransferProfile().idleTimeout)
            let outcome = try await peripheral.events.outcome()
            #expect(outcome == .failure(.peerStayed(awaited: "the central to turn notifications off and disconnect",
                                                    limit: TransferProfile().idleTimeout)))
            // Its cleanup then ends the connection.
            #expect(await rig.controller.command(HCIDisconnect.opcode) != nil)
        }
    }

    @Test("a write-back over 512 bytes is refused and said: a Write Command gets no answer, a Write Request an ATT error")
    func oversizeWriteBack() async throws {
        try await withRig(leBuffers: (251, 20)) { rig in
            let peripheral = try await Self.subscribed(rig, exchangeMTU: true)
            rig.controller.completePackets(UInt16(peripheral.pdus), on: Self.handle)
            let long = [UInt8](repeating: 0x42, count: 514)
            rig.controller.injectATT(handle: Self.handle, [0x52] + le(peripheral.valueHandle) + long)
            let refused = try await peripheral.events.next { if case .writeRefused = $0 { true } else { false } }
            #expect(refused == .writeRefused(length: 514, withResponse: false, error: .invalidAttributeValueLength))
            // A Write Request is answered with an ATT error: Write Not Permitted, as the
            // characteristic offers Write Without Response only (Core Vol 3, Part G §3.3.1.1).
            rig.controller.injectATT(handle: Self.handle, [0x12] + le(peripheral.valueHandle) + long)
            let answered = try await peripheral.events.next { if case .writeRefused = $0 { true } else { false } }
            #expect(answered == .writeRefused(length: 514, withResponse: true, error: .writeNotPermitted))
            let answer = try #require(await rig.controller.pdu(peripheral.pdus))
            #expect(try att(answer) == .errorResponse(requestOpcodeInError: .writeRequest,
                                                      attributeHandleInError: peripheral.valueHandle,
                                                      errorCode: .writeNotPermitted))
            rig.controller.injectDisconnection(handle: Self.handle)
            #expect(try await peripheral.events.outcome().get().reply == nil)
        }
    }
}

/// Little-endian bytes of a handle.
private func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

/// A role's events, read in order by a test: each wait is bounded in real time and names what
/// it waited for.
final class EventTap: Sendable {
    private struct State {
        var events: [TransferEvent] = []
        /// Events before this index were skipped or returned by ``next(_:)``.
        var cursor = 0
        var ended = false
        var waiters: [OneShot<Void>] = []
    }

    private let state = Mutex(State())

    init(_ events: AsyncStream<TransferEvent>) {
        Task { [self] in
            for await event in events { add { $0.events.append(event) } }
            add { $0.ended = true }
        }
    }

    private func add(_ change: (inout State) -> Void) {
        let waiters = state.withLock { state in
            change(&state)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resolve(()) }
    }

    /// Every event so far.
    var seen: [TransferEvent] { state.withLock { $0.events } }

    /// The next event `match` accepts (earlier ones skipped), within 10 s.
    func next(_ what: String = "a matching event", _ match: @escaping @Sendable (TransferEvent) -> Bool) async throws -> TransferEvent {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let (found, signal, ended) = state.withLock { state -> (TransferEvent?, OneShot<Void>?, Bool) in
                if let index = state.events[state.cursor...].firstIndex(where: match) {
                    state.cursor = index + 1
                    return (state.events[index], nil, false)
                }
                state.cursor = state.events.count
                guard !state.ended else { return (nil, nil, true) }
                let signal = OneShot<Void>()
                state.waiters.append(signal)
                return (nil, signal, false)
            }
            if let found { return found }
            guard let signal, !ended else { throw TimeoutError(what: "\(what); the stream ended: \(seen)", limit: "its end") }
            let moved = (try? await withTimeout(deadline - .now, what: "the peripheral's next event") { await signal.wait() }) != nil
            guard moved else { throw TimeoutError(what: "\(what): \(seen)", limit: "10 s") }
        }
    }

    /// The final event's outcome.
    func outcome() async throws -> Result<TransferSummary, TransferError> {
        guard let event = try await next("the outcome", { $0.outcome != nil }).outcome else { throw CancellationError() }
        return event
    }
}
