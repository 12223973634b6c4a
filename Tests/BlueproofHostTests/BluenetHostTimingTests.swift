import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofTestSupport
import BlueproofWire
import Testing

/// ``BluenetHost``'s deadlines run on its injected clock (issue 18): a connect that no device
/// answers ends at 3 s of that clock, not before, and the host cancels its LE attempt.
@Suite("Bluenet on the LE host: time")
struct BluenetHostTimingTests {
    @Test("connect to a device that never answers: rejected with the 3 s timeout at 3 s of the injected clock, LE Create Connection Cancel sent")
    func connectTimeout() async throws {
        let clock = ManualClock()
        try await withRig(clock: clock) { rig in
            let bluenet = BluenetHost(host: rig.host, clock: clock)
            let attempt = Task { await bluenet.connect("00:AA:01:00:00:23") }
            #expect(await rig.controller.command(HCILECreateConnection.opcode) != nil)
            // The host's own attempt timer and the core's deadline.
            await clock.waitForSleepers(2)
            clock.advance(by: .milliseconds(2999))
            #expect(clock.sleeperCount == 2, "a timer fired before 3 s")
            clock.advance(by: .milliseconds(1))
            #expect(await attempt.value == .rejected(.connection(.connectTimeout(seconds: 3))))
            #expect(await rig.controller.command(HCILECreateConnectionCancel.opcode) != nil)
        }
    }

    @Test("disconnect that the controller never confirms: rejected with the 2 s timeout at 2 s of the injected clock; with nothing connected it fulfils at once")
    func disconnectTimeout() async throws {
        let clock = ManualClock()
        try await withRig(clock: clock) { rig in
            let bluenet = BluenetHost(host: rig.host, clock: clock)
            #expect(await bluenet.disconnect() == .fulfilled)
            let attempt = Task { await bluenet.connect("00:AA:01:00:00:23") }
            #expect(await rig.controller.command(HCILECreateConnection.opcode) != nil)
            rig.controller.injectConnection(handle: 0x0040, role: .central)
            #expect(await attempt.value == .fulfilled)

            // Command Status, then no Disconnection Complete.
            rig.controller.setAnswer(.status(.success), for: HCIDisconnect.opcode)
            let leaving = Task { await bluenet.disconnect() }
            #expect(await rig.controller.command(HCIDisconnect.opcode) != nil)
            // The host's own wait and the core's deadline.
            await clock.waitForSleepers(2)
            clock.advance(by: .milliseconds(1999))
            #expect(clock.sleeperCount == 2, "a timer fired before 2 s")
            clock.advance(by: .milliseconds(1))
            #expect(await leaving.value == .rejected(.connection(.disconnectTimeout(seconds: 2))))
        }
    }
}
