import BlueproofTransmitter
import Foundation

/// A send-rule case that is not a matrix cell ("Sending options", "4. Send data"): one send
/// from the subject, accepted or refused.
struct SendRuleCase: TransmitterCase {
    let id: CaseID
    let nodes: Int
    let brokenBy: Set<Defect>
    /// Sets the stage up and returns the sends to try and, for each, nil when it must be
    /// accepted or the documented rules it must be refused by; none when the profile has no
    /// such rule (the case is then not applicable).
    let plan: @Sendable (TransmitterStage) async throws -> [(label: String, send: Send, refusedBy: Set<RefusalRule>?)]

    /// The BI cases expect refusals; the BV cases expect acceptance.
    var judgesRefusals: Bool { id.rawValue.contains("/BI-") }

    struct Send: Sendable {
        var dictionary: [String: TransmitterValue]? = ["text": .string("blueproof")]
        var data: Data? = nil
        var to: UserID?
        var options: SendingOptions
    }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        var notes: [String] = []
        let sends = try await plan(stage)
        guard !sends.isEmpty else { return .notApplicable("the profile documents no such rule") }
        for (label, send, rules) in sends {
            do {
                let id = try await stage.subject.send(dictionary: send.dictionary, data: send.data, to: send.to, options: send.options)
                if rules != nil { return .fail("\(label): accepted (packet \(id)), the document refuses it") }
                notes.append("\(label): accepted")
            } catch {
                guard let rules else { return .fail("\(label): refused: \(error)") }
                let judged = try stage.judgeRefusal(error, of: label, by: rules)
                guard judged.verdict == .pass else { return judged }
                notes.append("\(label): refused (\(error.name))")
            }
        }
        return .pass(notes.joined(separator: "; "))
    }

    static func all() -> [SendRuleCase] {
        [
            SendRuleCase(id: "BFT/OPT/BI-32", nodes: 2, brokenBy: [.missingReceiverAccepted]) { stage in
                _ = try await stage.connectedPair()
                return [SendingOptions.directTransmission, .meshTransmission, .fullTransmission].map {
                    ("\($0.names[0]) without a receiver", Send(to: nil, options: $0), [.missingReceiver])
                }
            },
            SendRuleCase(id: "BFT/OPT/BI-33", nodes: 2, brokenBy: [.unknownKeyAccepted]) { stage in
                let (_, tester) = try await stage.connectedPair()
                return [("Encrypted + DirectTransmission to a peer never securely connected",
                         Send(to: tester, options: [.encrypted, .directTransmission]), [.noSecureConnection])]
            },
            SendRuleCase(id: "BFT/OPT/BI-34", nodes: 2, brokenBy: [.broadcastWithReceiverAccepted]) { stage in
                let (_, tester) = try await stage.connectedPair()
                guard try stage.context.profile.string("bridgefy.options.broadcast_receiver") == "none" else { return [] }
                return [("BroadcastReceiver naming the tester as receiver", Send(to: tester, options: .broadcastReceiver), [.broadcastWithReceiver])]
            },
            SendRuleCase(id: "BFT/OPT/BV-18", nodes: 1, brokenBy: [.broadcastRefused]) { stage in
                try await stage.start(0)
                return [("BroadcastReceiver with no receiver", Send(to: nil, options: .broadcastReceiver), nil)]
            },
            SendRuleCase(id: "BFT/OPT/BV-21", nodes: 1, brokenBy: [.broadcastRefused]) { stage in
                try await stage.start(0)
                let options = SendingOptions(names: try stage.context.profile.strings("bridgefy.chat.broadcast_options")) ?? []
                return [("the tutorial's broadcast (\(options.names.joined(separator: " + ")))", Send(to: nil, options: options), nil)]
            },
            SendRuleCase(id: "BFT/OPT/BV-22", nodes: 2, brokenBy: [.encryptionRefused]) { stage in
                let (_, tester) = try await stage.connectedPair()
                try await stage.secure(0, with: tester)
                let options = SendingOptions(names: try stage.context.profile.strings("bridgefy.chat.direct_options")) ?? []
                return [("the tutorial's direct message (\(options.names.joined(separator: " + ")))", Send(to: tester, options: options), nil)]
            },
            SendRuleCase(id: "BFT/OND/BI-04", nodes: 1, brokenBy: [.onDemandAllowsMesh]) { stage in
                try await stage.start(0, mode: .onDemand)
                return [("MeshTransmission in on-demand mode", Send(to: .random(), options: .meshTransmission), [.onDemandRoute])]
            },
            SendRuleCase(id: "BFT/OND/BI-05", nodes: 1, brokenBy: [.onDemandAllowsMesh]) { stage in
                try await stage.start(0, mode: .onDemand)
                return [("BroadcastReceiver in on-demand mode", Send(to: nil, options: .broadcastReceiver), [.onDemandRoute])]
            },
            SendRuleCase(id: "BFT/OND/BI-06", nodes: 1, brokenBy: [.onDemandAllowsMesh]) { stage in
                try await stage.start(0, mode: .onDemand)
                return [("FullTransmission in on-demand mode", Send(to: .random(), options: .fullTransmission), [.onDemandRoute])]
            },
        ]
    }
}

/// BFT/OPT/BV-20: every accepted send gets a packet id no other send got.
struct UniquePacketIDCase: TransmitterCase {
    let id: CaseID = "BFT/OPT/BV-20"
    let nodes = 1
    let brokenBy: Set<Defect> = [.packetIDReused]

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        try await stage.start(0)
        var ids: Set<PacketID> = []
        for index in 0..<50 {
            let id = try await stage.subject.send(dictionary: ["n": .integer(Int64(index))], data: nil, to: nil, options: .broadcastReceiver)
            guard ids.insert(id).inserted else { return .fail("send \(index + 1) returned packet id \(id) again") }
        }
        return .pass("50 broadcasts, 50 different packet ids")
    }
}
