import BlueproofAsync
import BlueproofBluenet
import BlueproofBluenetHost

/// BLN/CONN (bluenet-lib-ios README, "Methods": connect, disconnect, setSwitchState): how the
/// subject's promises end, and what a simulated Crownstone (node 1) sees written.
enum BluenetConnectionCases {
    /// An address no controller of the case has: nobody answers a connection to it.
    static let nobody = "C0:FF:EE:00:00:01"
    /// Time the subject is given past a documented timeout to report it.
    static let slack: Duration = .seconds(3)

    static let all: [BluenetCase] = [
        BluenetCase("BLN/CONN/BI-01", nodes: 1, brokenBy: [.bluenetConnectNeverGivesUp]) { stage in
            let timeout = Duration.seconds((try? stage.context.profile.int("bluenet.connect_timeout_s")) ?? 3)
            let clock = ContinuousClock()
            let start = clock.now
            guard let outcome = await stage.settle("connect(\(nobody))", within: timeout + slack, { await $0.connect(nobody) }) else {
                return .fail("connect(\(nobody)), a device nobody plays, was not settled within the \(timeout) timeout and \(slack) more")
            }
            let took = start.duration(to: clock.now)
            switch outcome {
            case .rejected(.connection(.connectTimeout)) where took < timeout:
                return .fail("connect(\(nobody)) reported the connect timeout after \(took), before \(timeout)")
            case .rejected(.connection(.connectTimeout)), .rejected(.connection(.failed)):
                return .pass("connect(\(nobody)) was rejected after \(took): \(outcome)")
            default:
                return .fail("connect(\(nobody)), a device nobody plays, ended \(outcome)")
            }
        },
        BluenetCase("BLN/CONN/BI-03", nodes: 2, brokenBy: [.bluenetDimmingAccepted]) { stage in
            let crownstone = try await stage.connectedCrownstone(1)
            let dimmed = await stage.settle("setSwitchState(0.5)", within: BluenetStage.airWait) { await $0.setSwitchState(0.5) }
            guard case .rejected(.connection(.switchStateUnsupported)) = dimmed else {
                return .fail("setSwitchState(0.5) (dimming) was not refused as unsupported: \(dimmed.map { "\($0)" } ?? "not settled within \(BluenetStage.airWait)")")
            }
            // What reaches the Crownstone next shows whether anything went out for 0.5.
            let on = await stage.settle("setSwitchState(1)", within: BluenetStage.airWait) { await $0.setSwitchState(1) }
            guard on == .fulfilled, let first = await crownstone.events.first(within: BluenetStage.airWait, where: { $0.isSwitch }) else {
                throw BluenetPreconditionNotMet("setSwitchState(1) after the refusal reached no switch state on the Crownstone: \(on.map { "\($0)" } ?? "not settled")")
            }
            guard first == .switched(switchState: 100) else {
                return .fail("the Crownstone was switched to \(first) for the refused setSwitchState(0.5)")
            }
            return .pass("setSwitchState(0.5) was refused as unsupported and wrote nothing")
        },
        BluenetCase("BLN/CONN/BV-03", nodes: 3, brokenBy: [.bluenetConnectKeepsCurrent]) { stage in
            let first = try await stage.connectedCrownstone(1)
            try await stage.subject.startScanning(.crownstones)
            let second = try await stage.crownstone(2)
            let handle = try await stage.publishedHandle(of: second.name)
            await stage.subject.stopScanning()
            let outcome = await stage.settle("connect(\(handle)) while connected to \(first.name)", within: BluenetStage.airWait) {
                await $0.connect(handle)
            }
            guard outcome == .fulfilled, await second.events.first(within: BluenetStage.airWait, where: { $0.isConnection }) != nil else {
                throw BluenetPreconditionNotMet("connect(\(handle)) to \(second.name): \(outcome.map { "\($0)" } ?? "not settled within \(BluenetStage.airWait)")")
            }
            // The first device's link must have ended (the subject waited for it before connecting).
            guard await first.events.first(within: stage.disconnectWait, where: { $0.isDisconnection }) != nil else {
                return .fail("connected to \(second.name) while \(first.name) stayed connected (no disconnection within \(stage.disconnectWait))")
            }
            return .pass("connect(\(second.name)) disconnected \(first.name) and connected")
        },
        BluenetCase("BLN/CONN/BV-04", nodes: 1, brokenBy: [.bluenetDisconnectNeedsConnection]) { stage in
            let timeout = stage.disconnectTimeout
            guard let outcome = await stage.settle("disconnect()", within: timeout + slack, { await $0.disconnect() }) else {
                return .fail("disconnect() with nothing connected was not settled within the \(timeout) timeout and \(slack) more")
            }
            guard outcome == .fulfilled else { return .fail("disconnect() with nothing connected ended \(outcome)") }
            return .pass("disconnect() with nothing connected fulfilled")
        },
        BluenetCase("BLN/CONN/BV-05", nodes: 2, brokenBy: [.bluenetSwitchInverted]) { stage in
            let crownstone = try await stage.connectedCrownstone(1)
            var seen = 0
            for (state, expected) in [(1.0, UInt8(100)), (0.0, UInt8(0))] {
                let outcome = await stage.settle("setSwitchState(\(state))", within: BluenetStage.airWait) { await $0.setSwitchState(state) }
                guard outcome == .fulfilled else {
                    return .fail("setSwitchState(\(state)) ended \(outcome.map { "\($0)" } ?? "unsettled within \(BluenetStage.airWait)")")
                }
                guard let switched = await crownstone.events.first(within: BluenetStage.airWait, from: seen, where: { $0.isSwitch }) else {
                    return .fail("setSwitchState(\(state)) fulfilled but the Crownstone got no switch command within \(BluenetStage.airWait)")
                }
                seen = crownstone.events.events[seen...].firstIndex(of: switched).map { $0 + 1 } ?? seen
                guard switched == .switched(switchState: expected) else {
                    return .fail("setSwitchState(\(state)) switched the Crownstone to \(switched), not \(expected)")
                }
            }
            return .pass("setSwitchState(1) and (0) switched the Crownstone on (100) and off (0)")
        },
        BluenetCase("BLN/CONN/BV-06", nodes: 3, brokenBy: [.bluenetOffIgnored]) { stage in
            let (first, second) = (await stage.subject.on(.advertisementData), await stage.subject.on(.advertisementData))
            guard first != second else { return .fail("on(advertisementData) returned the id \(first) twice") }
            try await stage.subject.startScanning(.all)
            let plain = try await stage.plainDevice(1)
            for id in [first, second] {
                guard await stage.publications.first(within: BluenetStage.airWait, where: { $0.subscription == id && $0.name == plain }) != nil else {
                    throw BluenetPreconditionNotMet("subscription \(id) got no advertisement of \(plain) within \(BluenetStage.airWait)")
                }
            }
            guard await stage.subject.off(first) else { return .fail("off(\(first)) found no subscription \(first)") }
            // The Crownstone starts advertising after off returned: the ended subscription must not get it.
            let name = try await stage.crownstone(2).name
            guard await stage.publications.first(within: BluenetStage.airWait, where: { $0.subscription == second && $0.name == name }) != nil else {
                throw BluenetPreconditionNotMet("subscription \(second), still on, got no advertisement of the Crownstone \(name) within \(BluenetStage.airWait)")
            }
            let late = await stage.publishedWhileQuiet { $0.subscription == first && $0.name == name }
            guard late.isEmpty else {
                return .fail("after off(\(first)) its callback still got \(late.count) advertisement(s) of the Crownstone \(name)")
            }
            return .pass("on gave the distinct ids \(first) and \(second); after off(\(first)) only \(second) got the Crownstone")
        },
    ]
}

extension SimulatedCrownstone.Event {
    var isConnection: Bool { if case .connected = self { true } else { false } }
    var isDisconnection: Bool { if case .disconnected = self { true } else { false } }

    /// A switch command taken or a write refused: what a setSwitchState puts on the Crownstone.
    var isSwitch: Bool {
        switch self {
        case .switched, .refused: true
        case .advertising, .connected, .disconnected: false
        }
    }
}
