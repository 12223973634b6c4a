import BlueproofTransmitter

/// BFT/DLV/BI-05: a mesh packet goes no further than the hop limit. None of the five documents
/// gives the number ("Direct and mesh transmission" and "Mesh" in bridgefy-ios-sdk-readme.md
/// describe relaying without a bound), so it is a profile value marked not documented
/// (`bridgefy.mesh.hop_limit`): the most transmissions a packet takes from its sender.
///
/// The subject broadcasts at one end of a line of testers, each in range of its neighbours only.
/// The node `limit` hops away must receive the broadcast (not dropped early); the node one hop
/// further must not. Absence is shown by order, not by waiting: once the last node in reach has
/// the broadcast, it sends its neighbour a direct marker, and frames between two nodes keep their
/// order, so a broadcast forwarded further would reach the neighbour before the marker. That
/// node is a tester, which forwards a packet before it reports it (`MeshRouter.receive` puts the
/// forwards first, `Transmitter.perform` awaits each send), so its forward, if any, is on the link
/// before the case sees the report and sends the marker.
struct HopLimitCase: TransmitterCase {
    let id: CaseID = "BFT/DLV/BI-05"
    /// The line: the subject and up to `maxLimit` + 1 testers (btvirt gives 16 controllers, so
    /// over btvirt the case is not applicable; in process it runs on the simulated link).
    static let maxLimit = 16
    let nodes = HopLimitCase.maxLimit + 2
    let brokenBy: Set<Defect> = [.meshLimitOffByOne]

    var needs: CaseNeeds { CaseNeeds(controllers: nodes, radioScenario: Self.scenario(nodes: nodes), transmitters: nodes) }

    /// Node i is in range of i - 1 and i + 1 only.
    static func scenario(nodes: Int) -> String {
        var lines = ["seed: 1", "advertising-interval: 100ms", "sensitivity: -80", "rssi:", "  fixed: -100", "nodes:"]
        lines += (0..<nodes).map { "  - name: n\($0)" }
        lines.append("links:")
        for index in 1..<nodes { lines += ["  - between: [n\(index - 1), n\(index)]", "    fixed: -50"] }
        return lines.joined(separator: "\n") + "\n"
    }

    static let text: [String: TransmitterValue] = ["text": .string("blueproof hops")]
    static let marker: [String: TransmitterValue] = ["text": .string("blueproof after the last hop")]

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let limit = try stage.context.profile.int("bridgefy.mesh.hop_limit")
        guard (1...Self.maxLimit).contains(limit) else {
            return .notApplicable("the profile's hop limit \(limit) needs a line of \(limit + 2) nodes; this one has \(nodes)")
        }
        let (last, beyond) = (limit, limit + 1)
        var users: [UserID] = []
        for index in 0...beyond { users.append(try await stage.start(index)) }
        for index in 0..<beyond {
            let next = users[index + 1]
            _ = try await stage.wait(index, for: "connection with node \(index + 1)") { $0 == .connected(next) }
        }
        let id = try await stage.subject.send(dictionary: Self.text, data: nil, to: nil, options: .broadcastReceiver)
        guard await stage.logs[last].received(id, within: stage.airTimeout) != nil else {
            return .fail("the broadcast \(id) never reached the node \(limit) hops away (hop limit \(limit)): dropped early")
        }
        try await stage.sendReported(from: last, Self.marker, to: users[beyond], options: .directTransmission, reportedBy: beyond,
                                   precondition: .tester, unproven: "its silence about the broadcast \(id) proves nothing")
        if stage.logs[beyond].received.contains(where: { $0.packetID == id }) {
            return .fail("the broadcast \(id) reached the node \(beyond) hops away, past the hop limit of \(limit)")
        }
        return .pass("the broadcast \(id) reached the node \(limit) hops away and not the one \(beyond) hops away (hop limit \(limit))")
    }
}
