import BlueproofTransmitter
import Foundation

/// Replay (breaking-bridgefy-2021, "Authenticity"; docs/security.md, "Replay"). The SDK readme's
/// "Session" keeps a device's session across restarts and "Mesh" has each packet reach a node
/// once; a frame captured on the air and sent again after the subject restarted (stop, start,
/// same session) must not be delivered a second time.
enum ReplayCases {
    static let captured: [String: TransmitterValue] = ["text": .string("blueproof captured packet")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/ATK/BI-14", nodes: 2, brokenBy: [.replayStateNotPersisted]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let frame = try attacker.dataFrame(claiming: attacker.keys.userID, to: subject, signer: attacker.keys,
                                                   payload: RawFrameAttacker.payload(captured))
                let bytes = TransmitterFrame.data(frame).encoded()
                try await attacker.send(bytes, to: subject, what: "a signed data frame in its own name (packet \(frame.packetID))")
                guard await stage.logs[0].received(frame.packetID, within: stage.airTimeout) != nil else {
                    throw StageFailure(.connection, "the subject never delivered the original packet \(frame.packetID), so there is nothing to replay")
                }
                try await stage.stopSubject(seenBy: (1, subject))
                _ = try await stage.restartedPair()
                try await attacker.send(bytes, to: subject, what: "the same frame again, after the subject restarted")
                if let stalled = try await attacker.honestPacket(to: subject) { return .fail(stalled) }
                let deliveries = stage.logs[0].events.filter { if case .received(let packet) = $0 { packet.packetID == frame.packetID } else { false } }.count
                guard deliveries == 1 else {
                    return .fail("packet \(frame.packetID), replayed after the subject restarted, was delivered \(deliveries) times")
                }
                return .pass("packet \(frame.packetID), replayed after the subject restarted on its session, was not delivered again")
            },
        ]
    }
}
