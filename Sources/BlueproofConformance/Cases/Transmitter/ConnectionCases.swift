import BlueproofTransmitter
import Foundation

/// Automatic mode (bridgefy-ios-sdk-readme.md, "1. Automatic", "3. Nearby peer detection",
/// "Automatic mode"): peers are connected without a call and reported with the id a send then
/// takes, a peer that leaves is reported by the same id, and more than one peer joins one mesh.
enum ConnectionCases {
    static let text: [String: TransmitterValue] = ["text": .string("blueproof connections")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/CON/BV-01", nodes: 2, brokenBy: [.connectionUnreported]) { stage in
                let subject = try await stage.start(0)
                let tester = try await stage.start(1)
                guard await stage.logs[1].first(within: stage.airTimeout, where: { $0 == .connected(subject) }) != nil else {
                    return .fail("no connection was made between the subject and the tester within \(stage.airTimeout), with no call asking for one")
                }
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .connected(tester) }) != nil else {
                    return .fail("the tester connected, but the subject never reported didDetectConnectionWithUser \(tester)")
                }
                return .pass("with no connect call, the subject connected to the tester and reported it (\(tester))")
            },
            ScriptCase("BFT/CON/BV-02", nodes: 2, brokenBy: [.connectedUserMisnamed]) { stage in
                let subject = try await stage.start(0)
                try await stage.start(1)
                _ = try await stage.wait(1, for: "connection with the subject") { $0 == .connected(subject) }
                let event = try await stage.wait(0, for: "a connection") { if case .connected = $0 { true } else { false } }
                guard case .connected(let reported) = event else { return .fail("no connection reported") }
                let id: PacketID
                do {
                    id = try await stage.subject.send(dictionary: text, data: nil, to: reported, options: .directTransmission)
                } catch {
                    return .fail("a direct send to \(reported), the id the connection was reported with, was refused: \(error)")
                }
                guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
                    return .fail("the direct send to \(reported), the id the connection was reported with, never reached the tester")
                }
                return .pass("the id reported on connection (\(reported)) took a direct send, which reached the tester")
            },
            ScriptCase("BFT/CON/BV-03", nodes: 2, brokenBy: [.disconnectionUnreported]) { stage in
                let (_, tester) = try await stage.connectedPair()
                await stage.nodes[1].stop()
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .disconnected(tester) }) != nil else {
                    return .fail("the tester left, but the subject never reported didDetectDisconnectionWithUser \(tester)")
                }
                return .pass("the tester left and the subject reported its disconnection with its id \(tester)")
            },
            ScriptCase("BFT/CON/BV-05", nodes: 3, brokenBy: [.automaticSinglePeer], oneMesh),
        ]
    }

    /// BFT/CON/BV-05: two on-demand testers in range of the subject, which runs automatic. The
    /// testers connect to no one themselves, so every connection is the subject's doing; it must
    /// hold both at once (no call made) and its broadcast reach both. (Each controller then holds
    /// at most two links, which btvirt keeps apart reliably.)
    @Sendable static func oneMesh(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let subject = try await stage.start(0)
        let testers = [try await stage.start(1, mode: .onDemand), try await stage.start(2, mode: .onDemand)]
        for (index, tester) in zip([1, 2], testers) {
            _ = try await stage.wait(index, for: "connection with the subject") { $0 == .connected(subject) }
            guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .connected(tester) }) != nil else {
                return .fail("the subject never reported a connection with tester \(index) (\(tester))")
            }
        }
        let events = stage.logs[0].events
        let open = testers.filter { tester in events.lastIndex(of: .connected(tester)) ?? -1 > events.lastIndex(of: .disconnected(tester)) ?? -1 }
        guard open.count == testers.count else {
            return .fail("the subject did not hold both connections at once: open now with \(open.map(\.shortName)) of \(testers.map(\.shortName))")
        }
        let id = try await stage.subject.send(dictionary: text, data: nil, to: nil, options: .broadcastReceiver)
        for index in [1, 2] {
            guard await stage.logs[index].received(id, within: stage.airTimeout) != nil else {
                return .fail("the subject's broadcast \(id) never reached tester \(index)")
            }
        }
        // The subject's own reports can lag behind its links; each tester reports the end of
        // its link as it sees it (it is the runner's reference). Both must still be connected
        // with the subject once both have the broadcast.
        for index in [1, 2] {
            let last = stage.logs[index].events.last { $0 == .connected(subject) || $0 == .disconnected(subject) }
            guard last == .connected(subject) else {
                return .fail("tester \(index) lost its connection with the subject by the time both had the broadcast: the subject did not hold both at once")
            }
        }
        return .pass("the subject joined both (on-demand) testers without a call, connected to both at once; its broadcast reached both")
    }
}
