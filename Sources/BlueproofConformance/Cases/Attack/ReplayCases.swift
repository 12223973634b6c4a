import BlueproofTransmitter
import Foundation

/// Replay (breaking-bridgefy-2021, "Authenticity"; docs/security.md, "Replay"). The SDK readme's
/// "Session" keeps a device's session across restarts and "Mesh" has each packet reach a node
/// once; a frame captured on the air and sent again, after the subject restarted (stop, start,
/// same session) or behind a flood of fresh ids, must not be delivered a second time.
enum ReplayCases {
    static let captured: [String: TransmitterValue] = ["text": .string("blueproof captured packet")]

    static func all() -> [any TransmitterCase] {
        [
            ScriptCase("BFT/ATK/BI-14", nodes: 2, brokenBy: [.replayStateNotPersisted]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let original = try await deliverOriginal(attacker, to: subject)
                try await stage.stopSubject(seenBy: (1, subject))
                _ = try await stage.restartedPair()
                try await attacker.send(original.bytes, to: subject, what: "the same frame again, after the subject restarted")
                return try await judge(attacker, original.id, to: subject, after: "replayed after the subject restarted on its session")
            },
            ReplayFloodCase(),
        ]
    }

    /// A signed data frame in the attacker's own name, sent and delivered (else the stage failed:
    /// nothing to replay). Returns its id and bytes, as captured.
    static func deliverOriginal(_ attacker: RawFrameAttacker, to subject: UserID) async throws -> (id: PacketID, bytes: [UInt8]) {
        let frame = try attacker.dataFrame(claiming: attacker.keys.userID, to: subject, signer: attacker.keys,
                                           payload: RawFrameAttacker.payload(captured))
        let bytes = TransmitterFrame.data(frame).encoded()
        try await attacker.send(bytes, to: subject, what: "a signed data frame in its own name (packet \(frame.packetID))")
        guard await attacker.stage.logs[0].received(frame.packetID, within: attacker.stage.airTimeout) != nil else {
            throw StageFailure(.connection, "the subject never delivered the original packet \(frame.packetID), so there is nothing to replay")
        }
        return (frame.packetID, bytes)
    }

    /// After the replay: the honest packet must arrive, and `id` must have been delivered once.
    static func judge(_ attacker: RawFrameAttacker, _ id: PacketID, to subject: UserID, after what: String,
                      within timeout: Duration? = nil) async throws -> CaseOutcome {
        let stalled = try await attacker.honestPacket(to: subject, within: timeout)
        let deliveries = attacker.stage.logs[0].events.filter { if case .received(let packet) = $0 { packet.packetID == id } else { false } }.count
        guard deliveries == 1 else { return .fail("packet \(id), \(what), was delivered \(deliveries) times") }
        if let stalled { return .fail(stalled) }
        return .pass("packet \(id), \(what), was not delivered again")
    }
}

/// BFT/ATK/BI-17: between the original and its replay, a flood of fresh, correctly signed frames
/// (for another user, with no hops left, so the subject neither delivers nor relays them) larger
/// than the 4,096 ids the issue found the old cache held. A bounded cache that forgets the oldest
/// id lets the replay through. Over BLE the flood takes a while, hence the longer timeout.
struct ReplayFloodCase: TransmitterCase {
    let id: CaseID = "BFT/ATK/BI-17"
    let nodes = 2
    let brokenBy: Set<Defect> = [.replayGuardOff]
    static let floodSize = 5_000
    /// How long the subject may take to work through the flood before the honest packet.
    static let floodAllowance = Duration.seconds(120)

    var needs: CaseNeeds { CaseNeeds(controllers: nodes, transmitters: nodes, timeout: .seconds(300)) }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (subject, _) = try await stage.connectedPair()
        let attacker = try RawFrameAttacker(stage, node: 1)
        let original = try await ReplayCases.deliverOriginal(attacker, to: subject)
        let elsewhere = try RawFrameAttacker.freshKeys().userID
        let payload = try RawFrameAttacker.payload(["n": .integer(0)])
        let flood = try (0..<Self.floodSize).map { _ in
            TransmitterFrame.data(try attacker.dataFrame(claiming: attacker.keys.userID, to: elsewhere, signer: attacker.keys, payload: payload)).encoded()
        }
        try await attacker.send(flood, to: subject, what: "a flood of fresh ids for another user")
        try await attacker.send(original.bytes, to: subject, what: "the original frame again, after the flood")
        // The subject may take a while over the flood's frames ahead of the honest packet.
        return try await ReplayCases.judge(attacker, original.id, to: subject, after: "replayed after \(Self.floodSize) fresh ids",
                                           within: Self.floodAllowance)
    }
}
