import BlueproofTransmitter
import Foundation

/// Mesh delivery over three nodes in a line (bridgefy-ios-sdk-readme.md, "Direct and mesh
/// transmission", "Sending options", "Broadcast messages"): the ends are out of range of each
/// other and hear each other only through the middle node. Which node is the subject depends
/// on the behaviour: the relay for relaying, the sender for fallback.
struct MeshLineCase: TransmitterCase {
    enum Role: Sendable { case relay, sender }

    let id: CaseID
    let role: Role
    let brokenBy: Set<Defect>
    var judgesRefusals = false
    var judgesCaptures = false
    /// The real-time window the script watches for what must not happen (``CaseNeeds/quietWindow``).
    var quietWindow: Duration?
    let script: @Sendable (TransmitterStage, _ sender: Int, _ relay: Int, _ receiver: Int, [UserID]) async throws -> CaseOutcome
    let nodes = 3

    var needs: CaseNeeds {
        CaseNeeds(controllers: 3, radioScenario: MeshLineCase.scenario(relayFirst: role == .relay), transmitters: 3,
                  quietWindow: quietWindow)
    }

    /// Node order in the scenario: the subject is node 0, in the middle when it relays.
    static func scenario(relayFirst: Bool) -> String {
        let (a, b, c) = relayFirst ? ("relay", "sender", "receiver") : ("sender", "relay", "receiver")
        return """
            seed: 1
            advertising-interval: 100ms
            sensitivity: -80
            nodes:
              - name: \(a)
              - name: \(b)
              - name: \(c)
            links:
              - between: [sender, relay]
                fixed: -50
              - between: [relay, receiver]
                fixed: -50
              - between: [sender, receiver]
                fixed: -100
            """
    }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (sender, relay, receiver) = role == .relay ? (1, 0, 2) : (0, 1, 2)
        var started: [UserID] = []
        for index in 0..<3 { started.append(try await stage.start(index)) }
        let users = started
        _ = try await stage.wait(relay, for: "connection with the sender") { $0 == .connected(users[sender]) }
        _ = try await stage.wait(relay, for: "connection with the receiver") { $0 == .connected(users[receiver]) }
        return try await script(stage, sender, relay, receiver, users)
    }

    static let text: [String: TransmitterValue] = ["text": .string("blueproof mesh")]
    static let marker: [String: TransmitterValue] = ["text": .string("blueproof after the mesh packet")]

    static func all() -> [MeshLineCase] {
        [
            MeshLineCase(id: "BFT/DLV/BI-04", role: .relay, brokenBy: [.relayDeliversEverything],
                         quietWindow: TransmitterStage.minimumQuietWindow) { stage, sender, relay, receiver, users in
                let id = try await stage.send(from: sender, dictionary: text, to: users[receiver], options: .meshTransmission)
                guard await stage.logs[receiver].received(id, within: stage.airTimeout) != nil else {
                    // The subject is the relay: not forwarding is its fault, not missing evidence.
                    return .fail("the subject never relayed packet \(id) to its receiver out of the sender's range")
                }
                // Absence by order, then a quiet window: a mesh packet from the same sender to the
                // relay itself takes the same way through it, so once the relay reports that one, a
                // report of `id` from a relay that handles mesh packets in order is in; one that
                // holds others' packets back on a queue or timer of its own is caught if it hands
                // `id` over within the window (TransmitterStage.quietWindow), not later.
                let sent = ContinuousClock.now
                let marker = try await stage.sendReported(from: sender, Self.marker, to: users[relay], options: .meshTransmission, reportedBy: relay,
                                                          precondition: .connection, unproven: "its silence about \(id) proves nothing")
                let window = TransmitterStage.quietWindow(since: sent)
                let isID: @Sendable (TransmitterEvent) -> Bool = { if case .received(let packet) = $0 { packet.packetID == id } else { false } }
                if try await stage.watch(relay, for: window, what: "packet \(id)", isID) != nil {
                    return .fail("the relay handed packet \(id), addressed to the receiver, to its own app")
                }
                return .pass("the relay forwarded packet \(id) without receiving it itself (it reported the sender's later mesh packet \(marker), then nothing of \(id) for \(window))")
            },
            MeshLineCase(id: "BFT/DLV/BV-10", role: .relay, brokenBy: [.meshNeverRelays]) { stage, sender, relay, receiver, users in
                let id = try await stage.send(from: sender, dictionary: text, to: nil, options: .broadcastReceiver)
                guard let far = await stage.logs[receiver].received(id, within: stage.airTimeout) else {
                    return .fail("the broadcast \(id) never reached the node beyond the sender's range")
                }
                guard far.broadcast else { return .fail("the broadcast arrived with broadcast false") }
                // A relay may forward before it reports: its own copy gets the same wait.
                guard let own = await stage.logs[relay].received(id, within: stage.airTimeout) else {
                    return .fail("the relay forwarded the broadcast \(id) but did not receive it itself within \(stage.airTimeout)")
                }
                guard own.broadcast, own.sender == users[sender], own.dictionary == text else {
                    return .fail("the relay's own copy of the broadcast \(id) arrived altered: broadcast \(own.broadcast), sender \(own.sender), dictionary \(String(describing: own.dictionary))")
                }
                return .pass("the broadcast reached the relay and, through it, the node out of the sender's range")
            },
            MeshLineCase(id: "BFT/DLV/BV-08", role: .sender, brokenBy: [.fullNeverFallsBack]) { stage, sender, _, receiver, users in
                let id = try await stage.send(from: sender, dictionary: text, to: users[receiver], options: .fullTransmission)
                guard let packet = await stage.logs[receiver].received(id, within: stage.airTimeout) else {
                    return .fail("the full packet \(id) to a receiver out of range never arrived")
                }
                guard packet.mesh else { return .fail("arrived with mesh false, though the receiver was out of range") }
                return .pass("full transmission to a receiver out of range fell back to the mesh: arrived with mesh true")
            },
        ]
    }
}
