import BlueproofAsync
import BlueproofBluenet
import BlueproofBluenetHost

/// BLN/CONN (bluenet-lib-ios README, "Methods": connect, disconnect, setSwitchState): how the
/// subject's promises end, and what a simulated Crownstone (node 1) sees written.
enum BluenetConnectionCases {
    /// The subject and a Crownstone 2 m apart behind the radio proxy, which drops every
    /// Disconnection Complete (0x05) to the subject's host: its disconnections are never confirmed.
    static let unanswered = BluenetStage.scenario(testers: [("crownstone", 2, 0)], faults: ["- node: subject", "  drop: {event: \"0x05\"}"])

    /// ``unanswered`` with a second Crownstone 2 m away the other way (BI-04).
    static let unansweredPair = BluenetStage.scenario(testers: [("crownstone", 2, 0), ("second", -2, 0)], faults: ["- node: subject", "  drop: {event: \"0x05\"}"])

    /// How late the subject's host hears that its connection completed in BI-01: past any
    /// connect timeout a case waits for (the profile's and ``BluenetStage/settleGrace``).
    static let lateAnswerDelay: Duration = .seconds(10)

    /// The subject and a Crownstone 2 m apart behind the radio proxy, which hands the subject's
    /// host its first connection's completion ``lateAnswerDelay`` late: the connect must time out.
    static let lateAnswer = BluenetStage.scenario(testers: [("crownstone", 2, 0)], faults: completionDelayed(by: lateAnswerDelay))

    /// Every form of LE Connection Complete to the subject's host, held back `delay`, `count` times.
    static func completionDelayed(by delay: Duration, count: Int = 1) -> [String] {
        ["LE Connection Complete", "LE Enhanced Connection Complete", "LE Enhanced Connection Complete [v2]"].flatMap {
            ["- node: subject", "  delay: {event: \"\($0)\", by: \(Int(delay.seconds * 1000))ms, count: \(count)}"]
        }
    }

    /// How late the subject's controller tells its host a connection completed (BV-01): 1 s
    /// inside the 3 s timeout, room for a loaded machine's own connection time.
    static let answerDelay: Duration = .seconds(2)

    /// How late the subject's host hears of each of its first two connections in BV-02. A host
    /// that starts the second attempt once the aborted one's answer came has it after twice
    /// this, 4 s from the call: past a 3 s timeout counted from the call, 1 s within one counted
    /// from the attempt's start (the document's), whichever way the load on the machine tips.
    static let abortedAnswerDelay: Duration = .seconds(2)

    /// The subject and two Crownstones 2 m away behind the radio proxy, which hands the subject's
    /// host its first connection's completion ``answerDelay`` late (the device answers slowly).
    static let slowAnswer = BluenetStage.scenario(testers: [("crownstone", 2, 0), ("second", 0, 2)], faults: completionDelayed(by: answerDelay))

    /// The scene of ``slowAnswer``, each of the subject's first two connections answered
    /// ``abortedAnswerDelay`` late (BV-02).
    static let slowAnswers = BluenetStage.scenario(testers: [("crownstone", 2, 0), ("second", 0, 2)], faults: completionDelayed(by: abortedAnswerDelay, count: 2))

    static let all: [BluenetCase] = [
        BluenetCase("BLN/CONN/BI-01", nodes: 2, brokenBy: [.bluenetConnectNeverGivesUp, .bluenetConnectTimeoutLong], radioScenario: lateAnswer,
                    quietWindow: BluenetStage.timerWait(2)) { stage in
            let timeout = stage.connectTimeout
            guard timeout + BluenetStage.settleGrace < lateAnswerDelay else {
                throw BluenetCaseStopped.preconditionNotMet("the profile's connect timeout (\(timeout)) and \(BluenetStage.settleGrace) more reach the \(lateAnswerDelay) the Crownstone takes to answer")
            }
            let (_, handle) = try await stage.heardCrownstone(1)
            let timed = await stage.timed("connect(\(handle))", timeout: timeout) { await $0.connect(handle) }
            guard let outcome = timed.outcome else {
                return .fail("connect(\(handle)), its device answering only after \(lateAnswerDelay), was not settled within the \(timeout) timeout and \(BluenetStage.settleGrace) more")
            }
            switch outcome {
            case .rejected(.connection(.connectTimeout)), .rejected(.connection(.failed)):
                if let untimely = timed.untimely() { return .fail("connect(\(handle)) was rejected \(untimely): \(outcome)") }
                return .pass("connect(\(handle)), its device answering only after \(lateAnswerDelay), was rejected after \(timed.took) (the harness's \(timeout) timer: \(timed.timer)): \(outcome)")
            case .fulfilled:
                throw BluenetCaseStopped.preconditionNotMet("the connection completed after \(timed.took): the proxy did not hold its answer back \(lateAnswerDelay)")
            default:
                return .fail("connect(\(handle)), its device answering only after \(lateAnswerDelay), ended \(outcome)")
            }
        },
        BluenetCase("BLN/CONN/BI-02", nodes: 2, brokenBy: [.bluenetDisconnectNeverGivesUp, .bluenetDisconnectTimeoutLong], radioScenario: unanswered, quietWindow: BluenetStage.timerWait(2)) { stage in
            _ = try await stage.connectedCrownstone(1)
            let timeout = stage.disconnectTimeout
            let timed = await stage.timed("disconnect()", timeout: timeout) { await $0.disconnect() }
            guard let outcome = timed.outcome else {
                return .fail("disconnect(), its disconnection never confirmed, was not settled within the \(timeout) timeout and \(BluenetStage.settleGrace) more")
            }
            guard case .rejected(.connection(.disconnectTimeout)) = outcome else {
                return .fail("disconnect(), its disconnection never confirmed, ended \(outcome), not with the disconnect timeout")
            }
            if let untimely = timed.untimely() { return .fail("disconnect() reported the disconnect timeout \(untimely)") }
            return .pass("disconnect() with no confirmation was rejected with the disconnect timeout after \(timed.took) (the harness's \(timeout) timer: \(timed.timer))")
        },
        BluenetCase("BLN/CONN/BI-03", nodes: 2, brokenBy: [.bluenetDimmingAccepted]) { stage in
            let crownstone = try await stage.connectedCrownstone(1)
            let dimmed = await stage.settle("setSwitchState(0.5)", within: BluenetStage.airWait) { await $0.setSwitchState(0.5) }
            guard case .rejected(.connection(.switchStateUnsupported)) = dimmed else {
                return .fail("setSwitchState(0.5) (dimming) was not refused as unsupported: \(dimmed.map { "\($0)" } ?? "not settled within \(BluenetStage.airWait)")")
            }
            // What reaches the Crownstone next shows whether anything went out for 0.5: the
            // follow-up is off (0), which 0.5 rounded or truncated either way is not both of.
            let off = await stage.settle("setSwitchState(0)", within: BluenetStage.airWait) { await $0.setSwitchState(0) }
            guard off == .fulfilled, let first = await crownstone.events.first(within: BluenetStage.airWait, where: { $0.isSwitch }) else {
                throw BluenetCaseStopped.preconditionNotMet("setSwitchState(0) after the refusal reached no switch state on the Crownstone: \(off.map { "\($0)" } ?? "not settled")")
            }
            guard first == .switched(switchState: 0) else {
                return .fail("the Crownstone was switched to \(first) for the refused setSwitchState(0.5)")
            }
            // 0.5 truncated to off would be a first switch to 0 too: the follow-up's own must be the only one.
            let after = (crownstone.events.events.firstIndex(of: first) ?? 0) + 1
            if let second = await crownstone.events.first(within: BluenetStage.quietWait, from: after, where: { $0.isSwitch }) {
                return .fail("the Crownstone was switched twice (\(first), then \(second)) for the refused setSwitchState(0.5) and setSwitchState(0)")
            }
            return .pass("setSwitchState(0.5) was refused as unsupported and wrote nothing")
        },
        // connect "will disconnect from a connected device": that disconnection is held to the
        // disconnect timeout too, so a connect whose current link never confirms its end still settles.
        BluenetCase("BLN/CONN/BI-04", nodes: 3, brokenBy: [.bluenetSwitchNeverGivesUp, .bluenetSwitchGivesUpAtOnce], radioScenario: unansweredPair, quietWindow: BluenetStage.timerWait(2)) { stage in
            let first = try await stage.connectedCrownstone(1)
            let (second, handle) = try await stage.heardCrownstone(2)
            let (disconnect, connect) = (stage.disconnectTimeout, stage.connectTimeout)
            let what = "connect(\(second.name)) while connected to \(first.name), whose disconnection is never confirmed,"
            let timed = await stage.timed("connect(\(handle)) while connected to \(first.name)", timeout: disconnect + connect) { await $0.connect(handle) }
            guard let outcome = timed.outcome else {
                return .fail("\(what) was not settled within the \(disconnect) disconnect timeout, the \(connect) connect timeout and \(BluenetStage.settleGrace) more")
            }
            switch outcome {
            case .fulfilled:
                // Given up on the first link, it went on to the second: the second must have it.
                guard await second.events.first(within: BluenetStage.airWait, where: { if case .connected = $0 { true } else { false } }) != nil else {
                    return .fail("\(what) was fulfilled after \(timed.took), but \(second.name) never had a link")
                }
            case .rejected:
                // It must have waited for the disconnection at least as long as the disconnect timeout.
                if let untimely = timed.untimely(earliest: disconnect) { return .fail("\(what) was rejected \(untimely): \(outcome)") }
            }
            if timed.took > timed.timer + BluenetStage.timerLateness {
                return .fail("\(what) settled \(timed.took - timed.timer) after the harness's \(disconnect + connect) timer (both timeouts) fired: \(outcome)")
            }
            return .pass("\(what) settled after \(timed.took) (the harness's timer of both timeouts: \(timed.timer)): \(outcome)")
        },
        BluenetCase("BLN/CONN/BV-01", nodes: 2, brokenBy: [.bluenetConnectTimeoutShort], radioScenario: slowAnswer, quietWindow: BluenetStage.timerWait(2)) { stage in
            let timeout = stage.connectTimeout
            guard timeout > answerDelay else {
                throw BluenetCaseStopped.preconditionNotMet("the profile's connect timeout (\(timeout)) leaves no room past the \(answerDelay) the Crownstone takes to answer")
            }
            let (_, handle) = try await stage.heardCrownstone(1)
            let clock = ContinuousClock()
            let start = clock.now
            guard let outcome = await stage.settle("connect(\(handle))", within: timeout + BluenetStage.settleGrace, { await $0.connect(handle) }) else {
                return .fail("connect(\(handle)) to a Crownstone answering after \(answerDelay) was not settled within \(timeout + BluenetStage.settleGrace)")
            }
            let took = start.duration(to: clock.now)
            guard outcome == .fulfilled else {
                return .fail("connect(\(handle)) to a Crownstone answering after \(answerDelay), within the \(timeout) timeout, ended \(outcome) after \(took)")
            }
            guard took >= answerDelay else {
                throw BluenetCaseStopped.preconditionNotMet("the connection completed after \(took): the proxy did not hold its answer back \(answerDelay)")
            }
            return .pass("connect(\(handle)) fulfilled after \(took), the Crownstone answering after \(answerDelay)")
        },
        BluenetCase("BLN/CONN/BV-02", nodes: 3, brokenBy: [.bluenetConnectLeavesPending, .bluenetConnectTimeoutFromCall], radioScenario: slowAnswers,
                    quietWindow: BluenetStage.timerWait(2)) { stage in
            let (slowCrownstone, slow) = try await stage.heardCrownstone(1)
            let (_, other) = try await stage.heardCrownstone(2)
            let subject = stage.subject
            let first = Task { await subject.connect(slow) }
            // The Crownstone has the link; the subject hears of it only after abortedAnswerDelay: pending.
            guard await slowCrownstone.events.first(within: BluenetStage.airWait, where: { if case .connected = $0 { true } else { false } }) != nil else {
                first.cancel()
                throw BluenetCaseStopped.preconditionNotMet("connect(\(slow)) reached no link at the Crownstone within \(BluenetStage.airWait)")
            }
            let clock = ContinuousClock(), start = clock.now
            let second = await stage.settle("connect(\(other))", within: BluenetStage.airWait) { await $0.connect(other) }
            let took = start.duration(to: clock.now)
            // The first call runs in a task of its own, which a timeout must cancel: the wait
            // would otherwise outlast the timeout for as long as the subject holds the call.
            guard let firstOutcome = try? await withTimeout(BluenetStage.airWait, what: "connect(\(slow))", {
                await withTaskCancellationHandler { await first.value } onCancel: { first.cancel() }
            }) else {
                first.cancel()
                return .fail("the first connect(\(slow)) was never settled after connect(\(other)) was made while it was pending")
            }
            guard case .rejected(.connection(.aborted)) = firstOutcome else {
                return .fail("connect(\(other)) while connect(\(slow)) was pending: the first ended \(firstOutcome), not aborted")
            }
            guard second == .fulfilled else {
                return .fail("connect(\(other)), which aborted the pending connect(\(slow)), ended \(second.map { "\($0)" } ?? "unsettled within \(BluenetStage.airWait)") after \(took), not connected (its timeout runs from the start of its own attempt, once the aborted one is given up)")
            }
            guard took >= abortedAnswerDelay else {
                throw BluenetCaseStopped.preconditionNotMet("connect(\(other)) completed after \(took): the proxy did not hold its answer back \(abortedAnswerDelay)")
            }
            return .pass("connect(\(other)) aborted the pending connect(\(slow)) and connected after \(took), each answer \(abortedAnswerDelay) late")
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
            // "It will disconnect from a connected device": connecting elsewhere is the call's job, not a precondition.
            guard outcome == .fulfilled else {
                return .fail("connect(\(handle)) while connected to \(first.name) ended \(outcome.map { "\($0)" } ?? "unsettled within \(BluenetStage.airWait)"), not connected")
            }
            guard await second.events.first(within: BluenetStage.airWait, where: { $0.isConnection }) != nil else {
                return .fail("connect(\(handle)) fulfilled but \(second.name) got no link within \(BluenetStage.airWait)")
            }
            // The first device's link must have ended (the subject waited for it before connecting).
            guard await first.events.first(within: stage.disconnectWait, where: { $0.isDisconnection }) != nil else {
                return .fail("connected to \(second.name) while \(first.name) stayed connected (no disconnection within \(stage.disconnectWait))")
            }
            return .pass("connect(\(second.name)) disconnected \(first.name) and connected")
        },
        BluenetCase("BLN/CONN/BV-04", nodes: 1, brokenBy: [.bluenetDisconnectNeedsConnection]) { stage in
            let timeout = stage.disconnectTimeout
            guard let outcome = await stage.settle("disconnect()", within: timeout + BluenetStage.settleGrace, { await $0.disconnect() }) else {
                return .fail("disconnect() with nothing connected was not settled within the \(timeout) timeout and \(BluenetStage.settleGrace) more")
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
        BluenetCase("BLN/CONN/BV-06", nodes: 3, brokenBy: [.bluenetOffIgnored], quietWindow: BluenetStage.quietWait) { stage in
            let (first, second) = (await stage.subject.on(.advertisementData), await stage.subject.on(.advertisementData))
            guard first != second else { return .fail("on(advertisementData) returned the id \(first) twice") }
            try await stage.subject.startScanning(.all)
            let plain = try await stage.plainDevice(1)
            for id in [first, second] {
                guard await stage.publications.first(within: BluenetStage.airWait, where: { $0.subscription == id && $0.name == plain }) != nil else {
                    throw BluenetCaseStopped.preconditionNotMet("subscription \(id) got no advertisement of \(plain) within \(BluenetStage.airWait)")
                }
            }
            guard await stage.subject.off(first) else { return .fail("off(\(first)) found no subscription \(first)") }
            // The Crownstone starts advertising after off returned: the ended subscription must not get it.
            let name = try await stage.crownstone(2).name
            guard await stage.publications.first(within: BluenetStage.airWait, where: { $0.subscription == second && $0.name == name }) != nil else {
                throw BluenetCaseStopped.preconditionNotMet("subscription \(second), still on, got no advertisement of the Crownstone \(name) within \(BluenetStage.airWait)")
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
