import BlueproofTransmitter
import Foundation

/// Duplicate suppression (bridgefy-ios-sdk-readme.md, "Direct and mesh transmission",
/// "Broadcast messages"): four nodes in a diamond, the sender and the subject at opposite
/// corners, out of range of each other, each in range of both relays. Every packet reaches the
/// subject twice, once through each relay; the subject must hand it to its app once.
struct MeshDiamondCase: TransmitterCase {
    let id: CaseID
    /// Whether the sender broadcasts (else it sends a mesh packet to the subject).
    let broadcast: Bool
    let brokenBy: Set<Defect> = [.noDuplicateCache]
    let nodes = 4

    var needs: CaseNeeds {
        CaseNeeds(controllers: 4, radioScenario: Self.scenario, transmitters: 4, linksPerNode: 2, quietWindow: TransmitterStage.minimumQuietWindow)
    }

    /// Node 0 the subject, 1 the sender, 2 and 3 the relays (out of range of each other).
    static let scenario = """
        seed: 1
        advertising-interval: 100ms
        sensitivity: -80
        nodes:
          - name: subject
          - name: sender
          - name: relay-a
          - name: relay-b
        links:
          - between: [sender, relay-a]
            fixed: -50
          - between: [sender, relay-b]
            fixed: -50
          - between: [subject, relay-a]
            fixed: -50
          - between: [subject, relay-b]
            fixed: -50
          - between: [subject, sender]
            fixed: -100
          - between: [relay-a, relay-b]
            fixed: -100
        """

    static let text: [String: TransmitterValue] = ["text": .string("blueproof diamond")]
    static let witness: [String: TransmitterValue] = ["text": .string("blueproof after the diamond")]

    /// A second delivery is shown absent by order, then a quiet window. The relays are testers,
    /// which handle one peer's frames in order and forward a packet before they report it
    /// (`MeshRouter.receive`, `Transmitter.perform`): once both report a broadcast the sender
    /// made after the packet (the packet itself, when it is the broadcast), both copies are on
    /// their way to the subject. The subject then has its first delivery's wait and a quiet
    /// window (three times the relays' delay, 5 to 30 s) to show a second.
    ///
    /// A broadcast the subject relays can reach the second relay before the sender's own copy
    /// does; that relay then forwards nothing, and the subject is sent one copy only. So each
    /// relay's forwards must have risen by the time it reports, or the broadcast is sent afresh
    /// (at most `attempts` times, then the case is an error: a single copy proves nothing).
    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        var started: [UserID] = []
        for index in 0..<4 { started.append(try await stage.start(index)) }
        let users = started
        for (node, peer) in [(0, 2), (0, 3), (1, 2), (1, 3)] {
            _ = try await stage.wait(node, for: "connection with node \(peer)") { $0 == .connected(users[peer]) }
        }
        let what = broadcast ? "the broadcast" : "the mesh packet"
        let relays = try [2, 3].map { try stage.referenceTester($0, else: "a relay's forwards cannot be counted") }
        let (id, sent) = try await sentThroughBoth(stage, to: users[0], relays: relays)
        let window = TransmitterStage.quietWindow(since: sent)
        let isDelivery: @Sendable (TransmitterEvent) -> Bool = { if case .received(let packet) = $0 { packet.packetID == id } else { false } }
        guard await stage.logs[0].first(within: stage.airTimeout, where: isDelivery) != nil else {
            return .fail("\(what) \(id) never reached the subject through either relay")
        }
        guard let firstAt = stage.logs[0].events.firstIndex(where: isDelivery) else {
            return .error("the subject's first delivery of \(id) is missing from its event log")
        }
        if try await stage.watch(0, for: window, from: firstAt + 1, what: "a second delivery of \(id)", isDelivery) != nil {
            return .fail("the subject delivered \(what) \(id) twice: once per relay it came through")
        }
        return .pass("\(what) \(id) reached the subject through two relays (both had forwarded it) and was delivered once (no second delivery in \(window))")
    }

    /// Sends the packet from node 1 until each relay forwarded it on before reporting it (see
    /// `check`); returns its id and when it was sent.
    func sentThroughBoth(_ stage: TransmitterStage, to subject: UserID, relays: [Transmitter]) async throws -> (PacketID, ContinuousClock.Instant) {
        var attempt = 1
        while true {
            let before = await Self.forwards(relays)
            let sent = ContinuousClock.now
            let id = try await stage.send(from: 1, dictionary: Self.text, to: broadcast ? nil : subject,
                                          options: broadcast ? .broadcastReceiver : .meshTransmission)
            let witness = broadcast ? id : try await stage.send(from: 1, dictionary: Self.witness, to: nil, options: .broadcastReceiver)
            for relay in [2, 3] {
                try await stage.reported(witness, by: relay, within: stage.preconditionTimeout, precondition: .tester,
                                         unproven: "relay node \(relay)'s copy of \(id) is not known to be on its way")
            }
            let idle = zip([2, 3], zip(before, await Self.forwards(relays))).filter { $0.1.1 <= $0.1.0 }.map(\.0)
            guard !idle.isEmpty else { return (id, sent) }
            let short = "relay node \(idle.map(String.init).joined(separator: " and ")) forwarded nothing of \(id): it had it from the subject first, so the subject was sent one copy"
            guard attempt < Self.attempts else { throw StageFailure(.tester, "\(short), \(Self.attempts) times") }
            stage.context.log.note("\(short); sent afresh")
            attempt += 1
        }
    }

    /// How often the packet is sent before a relay that forwarded nothing makes the case an error.
    static let attempts = 3

    /// How many frames each relay has forwarded so far.
    static func forwards(_ relays: [Transmitter]) async -> [Int] {
        var counts: [Int] = []
        for relay in relays { counts.append(await relay.currentStatistics().forwarded) }
        return counts
    }

    static func all() -> [MeshDiamondCase] {
        [MeshDiamondCase(id: "BFT/DLV/BI-02", broadcast: false), MeshDiamondCase(id: "BFT/DLV/BI-03", broadcast: true)]
    }
}
