import BlueproofTransmitter

/// BFT/DLV/BV-04 (bridgefy-ios-sdk-readme.md, "Direct and mesh transmission": nearby peers
/// receive a mesh packet, hold it, and forward it to other peers towards its receiver). The line
/// of `MeshLineCase`, the subject in the middle, but the receiver is away when the packet is
/// sent: the relay must take it while its receiver is unreachable, keep it, and deliver it once
/// the receiver comes into range. A relay that only forwards to the neighbours it has when the
/// packet arrives passes a line where everyone is connected first, and fails here.
struct MeshHoldCase: TransmitterCase {
    let id: CaseID = "BFT/DLV/BV-04"
    let nodes = 3
    let brokenBy: Set<Defect> = [.meshNeverHolds]

    var needs: CaseNeeds {
        CaseNeeds(controllers: 3, radioScenario: MeshLineCase.scenario(relayFirst: true), transmitters: 3)
    }

    static let text: [String: TransmitterValue] = ["text": .string("blueproof held")]
    static let marker: [String: TransmitterValue] = ["text": .string("blueproof marker")]

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (relay, sender, receiver) = (0, 1, 2)
        // The receiver's id is learned before anyone else is on the air; then it leaves.
        let receiverUser = try await stage.start(receiver)
        await stage.nodes[receiver].stop()
        let relayUser = try await stage.start(relay)
        let senderUser = try await stage.start(sender)
        _ = try await stage.wait(relay, for: "connection with the sender") { $0 == .connected(senderUser) }
        _ = try await stage.wait(sender, for: "connection with the relay") { $0 == .connected(relayUser) }
        let id = try await stage.send(from: sender, dictionary: Self.text, to: receiverUser, options: .meshTransmission)
        // A broadcast after it on the same connection: once the relay reports the broadcast, a
        // relay that handles one peer's frames in order has taken the mesh packet before it (one
        // that does not may take it later, while the receiver is back: then this is not a hold).
        try await stage.sendReported(from: sender, Self.marker, to: nil, options: .broadcastReceiver, reportedBy: relay,
                                   precondition: .connection, unproven: "the relay is not known to hold packet \(id)")
        guard !stage.logs[receiver].received.contains(where: { $0.packetID == id }) else {
            throw StageFailure(.tester, "packet \(id) reached the receiver while it was stopped")
        }
        try await stage.start(receiver)
        guard let packet = await stage.logs[receiver].received(id, within: stage.airTimeout) else {
            return .fail("the relay took mesh packet \(id) while its receiver was away and never delivered it once the receiver came into range")
        }
        guard packet.mesh, packet.sender == senderUser else { return .fail("arrived with mesh \(packet.mesh), sender \(packet.sender)") }
        return .pass("the relay took packet \(id) while the receiver was away, held it, and delivered it once the receiver came (mesh true)")
    }
}
