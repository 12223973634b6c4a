import BlueproofTransmitter

/// The on-demand connection cap (bridgefy-ios-sdk-readme.md, "2. On-demand": at most
/// `bridgefy.on_demand.max_connections` connected devices at a time): one subject and cap + 1
/// testers, all in on-demand mode, so only `connectToUser` makes connections.
enum OnDemandCapCases {
    static func all() -> [OnDemandCapCase] {
        [
            OnDemandCapCase(id: "BFT/OND/BV-03", brokenBy: [.onDemandCapTooLow]) { stage, cap, testers in
                let open = try await OnDemandCapCase.connect(stage, testers.prefix(cap - 1))
                let last = testers[cap - 1]
                if let refused = await OnDemandCapCase.refusal(stage, last) {
                    return .fail("with \(open.count) of \(cap) connections open, connectToUser was refused: \(refused)")
                }
                return .pass("with \(cap - 1) of \(cap) connections open, connecting to one more succeeded")
            },
            OnDemandCapCase(id: "BFT/OND/BV-04", brokenBy: [.onDemandCapTooLow]) { stage, cap, testers in
                for (index, tester) in testers.prefix(cap).enumerated() {
                    if let refused = await OnDemandCapCase.refusal(stage, tester) {
                        return .fail("connection \(index + 1) of \(cap) refused: \(refused)")
                    }
                }
                // Held open while every connection is up: none may drop by itself.
                if let dropped = await stage.logs[0].first(within: .seconds(3), where: { if case .disconnected = $0 { true } else { false } }) {
                    return .fail("with \(cap) connections open one dropped: \(dropped)")
                }
                return .pass("\(cap) connections made on request stayed open")
            },
            OnDemandCapCase(id: "BFT/OND/BI-02", brokenBy: [.onDemandUncapped], judgesRefusals: true) { stage, cap, testers in
                _ = try await OnDemandCapCase.connect(stage, testers.prefix(cap))
                let extra = testers[cap]
                do {
                    try await stage.subject.connect(to: extra)
                } catch {
                    let judged = try stage.judgeRefusal(error, of: "connection \(cap + 1) with \(cap) open", by: [.connectionLimit])
                    guard judged.verdict == .pass else { return judged }
                    if let dropped = await stage.logs[0].first(within: .seconds(3), where: { if case .disconnected = $0 { true } else { false } }) {
                        return .fail("the refused connection dropped another: \(dropped)")
                    }
                    return .pass("\(judged.reason); the \(cap) open connections stayed")
                }
                if await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .connected(extra) }) != nil {
                    return .fail("connection \(cap + 1) was made with \(cap) open: the cap is \(cap)")
                }
                return .fail("connectToUser over the cap reported no error")
            },
            OnDemandCapCase(id: "BFT/OND/BV-05", brokenBy: [.onDemandCapCountsClosed]) { stage, cap, testers in
                _ = try await OnDemandCapCase.connect(stage, testers.prefix(cap))
                let first = testers[0]
                let mark = stage.logs[0].events.count
                do {
                    try await stage.subject.disconnect(from: first)
                } catch {
                    return .fail("at the maximum of \(cap) connections, disconnectFromUser failed: \(error)")
                }
                _ = try await stage.wait(0, for: "the disconnection of tester 1", from: mark) { $0 == .disconnected(first) }
                if let refused = await OnDemandCapCase.refusal(stage, testers[cap]) {
                    return .fail("at the maximum of \(cap) connections one was closed, yet connecting to another was refused: \(refused)")
                }
                return .pass("at the maximum of \(cap) connections one was closed, and a new connection was made")
            },
        ]
    }
}

/// One case of the cap: the stage has `cap + 2` nodes, every tester detected by the subject
/// before the script runs.
struct OnDemandCapCase: TransmitterCase {
    let id: CaseID
    let brokenBy: Set<Defect>
    let judgesRefusals: Bool
    let script: @Sendable (TransmitterStage, Int, [UserID]) async throws -> CaseOutcome

    init(id: CaseID, brokenBy: Set<Defect>, judgesRefusals: Bool = false,
         _ script: @escaping @Sendable (TransmitterStage, Int, [UserID]) async throws -> CaseOutcome) {
        self.id = id
        self.brokenBy = brokenBy
        self.judgesRefusals = judgesRefusals
        self.script = script
    }

    /// The documented cap; the case's node count follows it.
    static let documentedCap = 5
    var nodes: Int { Self.documentedCap + 2 }
    /// The subject holds the cap's connections at once.
    var needs: CaseNeeds { CaseNeeds(controllers: nodes, transmitters: nodes, linksPerNode: Self.documentedCap) }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let cap = try stage.context.profile.int("bridgefy.on_demand.max_connections")
        guard cap + 2 <= nodes else {
            return .notApplicable("the profile's cap of \(cap) needs \(cap + 2) nodes; this case runs \(nodes)")
        }
        let subject = try await stage.start(0, mode: .onDemand)
        var testers: [UserID] = []
        for index in 1...(cap + 1) { testers.append(try await stage.start(index, mode: .onDemand)) }
        for (index, tester) in testers.enumerated() {
            _ = try await stage.wait(0, for: "didDetectNearbyUser for tester \(index + 1)") { $0 == .nearbyUser(tester) }
            _ = try await stage.wait(index + 1, for: "didDetectNearbyUser for the subject") { $0 == .nearbyUser(subject) }
        }
        return try await script(stage, cap, testers)
    }

    /// Asks the subject to connect to `tester` and waits for the connection (reported after
    /// the subject's `mark`th event); returns the subject's refusal, or nil once connected. In
    /// on-demand mode the tester asks too, as both sides of an on-demand BLE link do
    /// (docs/transmitter-links.md, "Connections").
    static func refusal(_ stage: TransmitterStage, _ tester: UserID, from mark: Int = 0) async -> TransmitterError? {
        var helper: Task<Void, Never>?
        if let subject = await stage.subject.localUser(), let index = await stage.index(of: tester) {
            // Never cancelled: a connect given up midway may end the link it was making.
            helper = Task { try? await stage.nodes[index].connect(to: subject) }
        }
        do {
            try await stage.subject.connect(to: tester)
        } catch {
            await helper?.value
            return error
        }
        await helper?.value
        guard await stage.logs[0].first(within: stage.airTimeout, from: mark, where: { $0 == .connected(tester) }) != nil else {
            return TransmitterError.directReceiverNotInRange.with(detail: "no connection reported within \(stage.airTimeout)")
        }
        return nil
    }

    /// Connects the subject to `testers`, each a precondition of the case's step.
    static func connect(_ stage: TransmitterStage, _ testers: ArraySlice<UserID>) async throws -> [UserID] {
        for tester in testers {
            if let refused = await refusal(stage, tester) {
                throw StageFailure(.connection, "the subject could not connect to \(tester.shortName): \(refused)")
            }
        }
        return Array(testers)
    }
}

extension TransmitterStage {
    /// The node whose user is `user`.
    func index(of user: UserID) async -> Int? {
        for (index, node) in nodes.enumerated() where await node.localUser() == user { return index }
        return nil
    }
}
