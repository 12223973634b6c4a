import BlueproofBluenet
import Testing

@Suite("Bluenet connect, disconnect and setSwitchState rules")
struct ConnectionTests {
    /// A core connected to `handle`, its actions drained.
    static func connected(_ handle: String) -> BluenetConnection {
        var core = BluenetConnection()
        _ = core.connect(handle, now: .zero)
        core.connected(handle)
        _ = core.drainActions()
        return core
    }

    /// BLN/CONN/BI-01: a device that never answers fails 3 s after the attempt started, not before.
    @Test func connectTimesOutAfterThreeSeconds() {
        var core = BluenetConnection()
        let request = core.connect("a", now: .seconds(10))
        #expect(core.drainActions() == [.connect(handle: "a")])
        core.tick(now: .seconds(12.999))
        #expect(core.drainActions().isEmpty)
        core.tick(now: .seconds(13))
        #expect(core.drainActions() == [.cancelConnect(handle: "a"), .complete(request: request, .rejected(.connection(.connectTimeout(seconds: 3))))])
        #expect(core.state == .idle)
    }

    /// BLN/CONN/BV-01: an answer just before the timeout fulfils.
    @Test func slowAnswerBeforeTheTimeoutConnects() {
        var core = BluenetConnection()
        let request = core.connect("a", now: .zero)
        core.tick(now: .seconds(2.9))
        core.connected("a")
        core.tick(now: .seconds(5))
        #expect(core.drainActions() == [.connect(handle: "a"), .complete(request: request, .fulfilled)])
        #expect(core.state == .connected(handle: "a"))
    }

    /// BLN/CONN/BV-02: a new connect aborts the pending one.
    @Test func connectAbortsThePendingRequest() {
        var core = BluenetConnection()
        let first = core.connect("a", now: .zero)
        let second = core.connect("b", now: .seconds(1))
        #expect(core.drainActions() == [
            .connect(handle: "a"), .cancelConnect(handle: "a"), .complete(request: first, .rejected(.connection(.aborted))),
            .connect(handle: "b"),
        ])
        core.connected("a")
        #expect(core.drainActions() == [.disconnect(handle: "a")], "a late link to the aborted device is dropped")
        core.connected("b")
        #expect(core.drainActions() == [.complete(request: second, .fulfilled)])
    }

    /// BLN/CONN/BV-02: an attempt the host starts only once the aborted one was given up has
    /// its 3 s from then; with the variant's fault, from the call.
    @Test(arguments: [false, true]) func abortingConnectTimesFromItsAttempt(fromCall: Bool) {
        var configuration = BluenetConnection.Configuration()
        configuration.connectTimeoutFromCall = fromCall
        var core = BluenetConnection(configuration: configuration)
        _ = core.connect("a", now: .zero)
        let second = core.connect("b", now: .seconds(1))
        _ = core.drainActions()
        core.attemptStarted("a", now: .seconds(2)) // not the pending handle: changes nothing
        core.attemptStarted("b", now: .seconds(2))
        core.tick(now: .seconds(4.5))
        let timedOut: [BluenetConnectionAction] = [.cancelConnect(handle: "b"), .complete(request: second, .rejected(.connection(.connectTimeout(seconds: 3))))]
        #expect(core.drainActions() == (fromCall ? timedOut : []))
        core.tick(now: .seconds(5))
        #expect(core.drainActions() == (fromCall ? [] : timedOut))
    }

    /// BLN/CONN/BV-02: before the host starts the attempt (it is still giving up the aborted
    /// one, for up to its own connect timeout) the deadline allows both timeouts from the call.
    @Test func abortingConnectWaitsForTheAbortedAttemptWithinBothTimeouts() {
        var core = BluenetConnection()
        _ = core.connect("a", now: .zero)
        let second = core.connect("b", now: .seconds(1))
        _ = core.drainActions()
        core.tick(now: .seconds(4.5))
        #expect(core.drainActions().isEmpty, "3 s from the call is not yet the attempt's timeout")
        core.tick(now: .seconds(7))
        #expect(core.drainActions() == [.cancelConnect(handle: "b"), .complete(request: second, .rejected(.connection(.connectTimeout(seconds: 3))))])
    }

    /// BLN/CONN/BV-03: connect while connected disconnects first; the 3 s start when the attempt does.
    @Test func connectWhileConnectedDisconnectsFirstAndTimesFromTheActualStart() {
        var core = Self.connected("a")
        let request = core.connect("b", now: .seconds(10))
        #expect(core.drainActions() == [.disconnect(handle: "a")])
        core.disconnected("a", now: .seconds(11.5))
        #expect(core.drainActions() == [.connect(handle: "b")])
        core.tick(now: .seconds(14))
        #expect(core.drainActions().isEmpty, "3 s from 11.5 s, not from the call at 10 s")
        core.tick(now: .seconds(14.5))
        #expect(core.drainActions() == [.cancelConnect(handle: "b"), .complete(request: request, .rejected(.connection(.connectTimeout(seconds: 3))))])
    }

    /// BLN/CONN/BV-04: disconnect with nothing connected fulfils at once.
    @Test func disconnectWithNothingConnectedFulfils() {
        var core = BluenetConnection()
        let request = core.disconnect(now: .zero)
        #expect(core.drainActions() == [.complete(request: request, .fulfilled)])
    }

    /// BLN/CONN/BI-02: a disconnect with no answer gives up after 2 s; one answered fulfils.
    @Test func disconnectTimesOutAfterTwoSeconds() {
        var core = Self.connected("a")
        let request = core.disconnect(now: .seconds(5))
        core.tick(now: .seconds(6.9))
        #expect(core.drainActions() == [.disconnect(handle: "a")])
        core.tick(now: .seconds(7))
        #expect(core.drainActions() == [.complete(request: request, .rejected(.connection(.disconnectTimeout(seconds: 2))))])

        var answered = Self.connected("a")
        let second = answered.disconnect(now: .seconds(1))
        answered.disconnected("a", now: .seconds(1.2))
        #expect(answered.drainActions().last == .complete(request: second, .fulfilled))
    }

    /// BLN/CONN/BV-05: 0 and 1 are written as off and on.
    @Test func switchStateZeroAndOne() {
        var core = Self.connected("cs")
        let on = core.setSwitchState(1)
        core.switchStateWritten("cs")
        let off = core.setSwitchState(0)
        core.switchStateWritten("cs")
        #expect(core.drainActions() == [
            .writeSwitchState(handle: "cs", on: true), .complete(request: on, .fulfilled),
            .writeSwitchState(handle: "cs", on: false), .complete(request: off, .fulfilled),
        ])
    }

    /// BLN/CONN/BI-03: values between 0 and 1 (and any other) are refused without a write.
    @Test func switchStateBetweenIsRefused() {
        var core = Self.connected("cs")
        for value in [0.5, 0.001, 0.999, -1, 2, 100, .nan, .infinity] {
            let request = core.setSwitchState(value)
            let actions = core.drainActions()
            #expect(actions.count == 1)
            guard case .complete(request, .rejected(.connection(.switchStateUnsupported))) = actions.first else {
                Issue.record("\(value): \(actions)")
                continue
            }
        }
    }

    /// BLN/CONN/BV-02, BV-04: a disconnect while a connect is pending aborts it and fulfils;
    /// a second connect while the first waits for the old device's disconnection replaces it.
    @Test func pendingRequestsAreAborted() {
        var core = BluenetConnection()
        let connect = core.connect("a", now: .zero)
        let disconnect = core.disconnect(now: .seconds(1))
        #expect(core.drainActions() == [
            .connect(handle: "a"), .cancelConnect(handle: "a"), .complete(request: connect, .rejected(.connection(.aborted))),
            .complete(request: disconnect, .fulfilled),
        ])
        var switching = Self.connected("a")
        let first = switching.connect("b", now: .zero)
        let second = switching.connect("c", now: .seconds(0.5))
        switching.disconnected("a", now: .seconds(1))
        #expect(switching.drainActions() == [
            .disconnect(handle: "a"), .complete(request: first, .rejected(.connection(.aborted))), .connect(handle: "c"),
        ])
        switching.connected("c")
        #expect(switching.drainActions() == [.complete(request: second, .fulfilled)])
    }

    /// setSwitchState needs a connection.
    @Test func switchStateNeedsAConnection() {
        var core = BluenetConnection()
        let request = core.setSwitchState(1)
        #expect(core.drainActions() == [.complete(request: request, .rejected(.connection(.notConnected)))])
    }
}
