import BlueproofTransmitter
import Foundation

/// On-demand mode (bridgefy-ios-sdk-readme.md, "2. On-demand", "On-demand mode").
enum OnDemandCases {
    /// How long a detected peer is watched for a connection nobody asked for.
    static let unaskedConnectionWindow: Duration = .seconds(5)

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/OND/BV-01", nodes: 2, brokenBy: [.onDemandAutoConnects], quietWindow: unaskedConnectionWindow) { stage in
                try await stage.start(0, mode: .onDemand)
                let tester = try await stage.start(1, mode: .onDemand)
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .nearbyUser(tester) }) != nil else {
                    return .fail("the on-demand subject never reported the tester nearby (didDetectNearbyUser) within \(stage.airTimeout)")
                }
                if await stage.logs[0].first(within: unaskedConnectionWindow, where: { if case .connected = $0 { true } else { false } }) != nil {
                    return .fail("the on-demand subject connected without being asked")
                }
                return .pass("the tester was reported nearby and no connection followed for \(unaskedConnectionWindow)")
            },
            ScriptCase("BFT/OND/BV-07", nodes: 2, brokenBy: [.onDemandNeverConnects]) { stage in
                let (_, tester, failure) = try await subjectConnects(stage)
                if let failure { return failure }
                let text: [String: TransmitterValue] = ["text": .string("on demand")]
                let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
                guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
                    return .fail("the direct packet \(id) never arrived")
                }
                return .pass("connected on request; a direct send was accepted and delivered")
            },
            ScriptCase("BFT/OND/BV-02", nodes: 2, brokenBy: [.onDemandNeverConnects]) { stage in
                let (subject, _, failure) = try await subjectConnects(stage)
                if let failure { return failure }
                guard await stage.logs[1].first(within: stage.airTimeout, where: { $0 == .connected(subject) }) != nil else {
                    return .fail("the subject reported a connection the tester never saw")
                }
                return .pass("connectToUser on a detected peer connected: didDetectConnectionWithUser on both sides")
            },
            ScriptCase("BFT/OND/BV-06", nodes: 2, brokenBy: [.disconnectIgnored]) { stage in
                let tester = try await stage.onDemandPair()
                guard let subject = await stage.subject.localUser() else { throw StageFailure(.start, "the subject has no user id") }
                let mark = stage.logs.map(\.events.count)
                do {
                    try await stage.subject.disconnect(from: tester)
                } catch {
                    return .fail("disconnectFromUser on a connected peer failed: \(error)")
                }
                guard await stage.logs[0].first(within: stage.airTimeout, from: mark[0], where: { $0 == .disconnected(tester) }) != nil else {
                    return .fail("disconnectFromUser reported no disconnection (didDetectDisconnectionWithUser) within \(stage.airTimeout)")
                }
                guard await stage.logs[1].first(within: stage.airTimeout, from: mark[1], where: { $0 == .disconnected(subject) }) != nil else {
                    return .fail("the subject reported the disconnection, but the link stayed up: the tester saw none within \(stage.airTimeout)")
                }
                return .pass("disconnectFromUser closed the link: both sides reported the disconnection")
            },
            ScriptCase("BFT/OND/BI-01", nodes: 1, brokenBy: [.connectToAnyone], judgesRefusals: true) { stage in
                try await stage.start(0, mode: .onDemand)
                do {
                    try await stage.subject.connect(to: .random())
                    return .fail("connectToUser on a user never detected reported no error")
                } catch {
                    return try stage.judgeRefusal(error, of: "connectToUser on a user never detected", by: [.userNotNearby])
                }
            },
            ScriptCase("BFT/OND/BI-03", nodes: 1, brokenBy: [.connectToAnyone], judgesRefusals: true) { stage in
                try await stage.start(0, mode: .onDemand)
                do {
                    try await stage.subject.disconnect(from: .random())
                    return .fail("disconnectFromUser on a user not connected reported no error")
                } catch {
                    return try stage.judgeRefusal(error, of: "disconnectFromUser on a user not connected", by: [.userNotConnected])
                }
            },
        ]
    }

    /// Both nodes in on-demand mode; once it detects the tester, the subject alone asks to
    /// connect (a tester asking too would make the connection itself). Returns both users,
    /// and the failure when no connection was reported.
    static func subjectConnects(_ stage: TransmitterStage) async throws -> (subject: UserID, tester: UserID, failure: CaseOutcome?) {
        let subject = try await stage.start(0, mode: .onDemand)
        let tester = try await stage.start(1, mode: .onDemand)
        _ = try await stage.wait(0, for: "didDetectNearbyUser for the tester") { $0 == .nearbyUser(tester) }
        do {
            try await stage.subject.connect(to: tester)
        } catch {
            return (subject, tester, .fail("connectToUser on a detected peer failed: \(error)"))
        }
        guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .connected(tester) }) != nil else {
            return (subject, tester, .fail("connectToUser on a detected peer reported no connection (didDetectConnectionWithUser) within \(stage.airTimeout)"))
        }
        return (subject, tester, nil)
    }
}
