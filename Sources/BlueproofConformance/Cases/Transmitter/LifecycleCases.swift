import BlueproofTransmitter
import Foundation

/// The transmitter's lifecycle (bridgefy-ios-sdk-readme.md, "2. Start transmitter", "Save
/// state"): start without a mode is automatic, start with on-demand is on-demand, stop ends
/// every link, a restart keeps the identity, and saveState keeps pending work across a restart.
enum LifecycleCases {
    static let text: [String: TransmitterValue] = ["text": .string("blueproof lifecycle")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/LIFE/BV-02", nodes: 2, brokenBy: [.defaultModeOnDemand]) { stage in
                do { try await stage.subject.startInDefaultMode() } catch {
                    throw StageFailure(.start, "the subject did not start without a mode: \(error)")
                }
                let started = try await stage.wait(0, for: "started", precondition: .start) { if case .started = $0 { true } else { false } }
                guard started == .started(.automatic) else { return .fail("start without a mode reported \(started), not the automatic mode") }
                // An on-demand tester never connects by itself: a connection is the subject's doing.
                let tester = try await stage.start(1, mode: .onDemand)
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .connected(tester) }) != nil else {
                    return .fail("started without a mode, the subject never connected to the on-demand tester by itself")
                }
                return .pass("start without a mode reported the automatic mode and connected to a nearby peer with no call")
            },
            ScriptCase("BFT/LIFE/BV-03", nodes: 2, brokenBy: [.onDemandStartsAutomatic]) { stage in
                try await stage.start(0, mode: .onDemand)
                let started = try await stage.wait(0, for: "started", precondition: .start) { if case .started = $0 { true } else { false } }
                guard started == .started(.onDemand) else { return .fail("start with the on-demand mode reported \(started)") }
                let tester = try await stage.start(1, mode: .onDemand)
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .nearbyUser(tester) }) != nil else {
                    return .fail("started on-demand, the subject never reported the tester nearby (didDetectNearbyUser)")
                }
                do { try await stage.subject.connect(to: tester) } catch {
                    return .fail("started on-demand, the subject refused connectToUser on a detected peer: \(error)")
                }
                _ = try await stage.wait(0, for: "the requested connection") { $0 == .connected(tester) }
                return .pass("start with the on-demand mode reported it, detected the tester and connected only when asked")
            },
            ScriptCase("BFT/LIFE/BV-04", nodes: 2, brokenBy: [.stopKeepsLinks]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let mark = stage.logs[1].events.count
                await stage.subject.stop()
                _ = try await stage.wait(0, for: "stopped", precondition: .start) { $0 == .stopped }
                guard await stage.logs[1].first(within: stage.airTimeout, from: mark, where: { $0 == .disconnected(subject) }) != nil else {
                    return .fail("the subject reported stopped, but its link with the tester stayed open")
                }
                return .pass("stop closed the subject's link: the tester saw it disconnect")
            },
            ScriptCase("BFT/LIFE/BV-05", nodes: 2, brokenBy: [.restartNewIdentity]) { stage in
                let (first, _) = try await stage.connectedPair()
                try await stage.stopSubject(seenBy: (1, first))
                let mark = stage.logs[1].events.count
                await stage.nodes[1].stop()
                let again = try await stage.start(0)
                guard again == first else { return .fail("started again after stop, the subject is \(again), not \(first)") }
                try await stage.start(1)
                guard await stage.logs[1].first(within: stage.airTimeout, from: mark, where: { $0 == .connected(first) }) != nil else {
                    return .fail("after the restart the tester never met the subject again as \(first)")
                }
                return .pass("stopped and started again, the subject kept user id \(first), and the tester met it again under it")
            },
            ScriptCase("BFT/LIFE/BV-10", nodes: 2, brokenBy: [.saveStateNoop], pendingWorkSaved),
        ]
    }

    /// BFT/LIFE/BV-10: the subject holds a mesh packet for a tester out of range, calls
    /// saveState, stops and starts again; when the tester appears it must get the packet.
    @Sendable static func pendingWorkSaved(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let tester = try await stage.start(1)
        await stage.nodes[1].stop()
        try await stage.start(0)
        let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .meshTransmission)
        do { try await stage.subject.saveState() } catch { return .fail("saveState failed with a mesh packet pending: \(error)") }
        try await stage.stopSubject()
        let subject = try await stage.start(0)
        try await stage.start(1)
        // The packet can move only once the two are connected: not connecting is a precondition
        // not met (an error), not a packet lost.
        _ = try await stage.wait(1, for: "connection with the restarted subject") { $0 == .connected(subject) }
        guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
            return .fail("mesh packet \(id), pending when saveState was called, was lost across the restart")
        }
        return .pass("mesh packet \(id), pending at saveState, was delivered after the restart")
    }
}
