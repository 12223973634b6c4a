import BlueproofTransmitter
import Foundation

/// One cell of the sending-option matrix (BFT/OPT/BI-01…31, BV-01…17): a transmission option,
/// an encryption choice and a payload kind, accepted or refused at the call as the document
/// says (bridgefy-ios-sdk-readme.md, "Sending options", "Mesh", "Broadcast messages",
/// "4. Send data"). Sent from the subject to a connected tester, securely connected when the
/// cell is encrypted, so the cell's own rule is the only reason to refuse.
struct OptionMatrixCase: TransmitterCase {
    enum Transmission: CaseIterable { case direct, mesh, full, broadcast }
    enum Encryption: CaseIterable { case noEncrypted, encrypted, unspecified }
    enum Payload: CaseIterable { case dictionary, binary, both, neither }

    let id: CaseID
    let transmission: Transmission
    let encryption: Encryption
    let payload: Payload
    let nodes = 2

    var judgesRefusals: Bool { !accepted }

    /// The documented outcome.
    var accepted: Bool {
        if payload == .neither { return false }
        let hasBinary = payload != .dictionary
        switch transmission {
        case .direct: return true
        case .mesh, .full: return !hasBinary
        case .broadcast: return encryption != .encrypted && !hasBinary
        }
    }

    /// The documented rules this cell breaks; a refusal must be for one of them.
    var rules: Set<RefusalRule> {
        var rules: Set<RefusalRule> = []
        let hasBinary = payload == .binary || payload == .both
        if payload == .neither { rules.insert(.emptyPayload) }
        switch transmission {
        case .direct: break
        case .mesh, .full: if hasBinary { rules.insert(.binaryInMesh) }
        case .broadcast:
            if encryption == .encrypted { rules.insert(.encryptedBroadcast) }
            if hasBinary { rules.insert(.binaryInBroadcast) }
        }
        return rules
    }

    var options: SendingOptions {
        var options: SendingOptions = switch transmission {
        case .direct: .directTransmission
        case .mesh: .meshTransmission
        case .full: .fullTransmission
        case .broadcast: .broadcastReceiver
        }
        switch encryption {
        case .noEncrypted: options.insert(.noEncrypted)
        case .encrypted: options.insert(.encrypted)
        case .unspecified: break
        }
        return options
    }

    var brokenBy: Set<Defect> {
        if accepted {
            if encryption == .encrypted { return [.encryptionRefused] }
            return transmission == .broadcast ? [.broadcastRefused] : [.unencryptedRefused]
        }
        if payload == .neither { return [.emptyPayloadAccepted] }
        switch transmission {
        case .mesh, .full: return [.binaryInMeshAllowed]
        case .direct: return []
        case .broadcast:
            var defects: Set<Defect> = []
            if encryption == .encrypted { defects.insert(.encryptedBroadcastAllowed) }
            if payload != .dictionary { defects.insert(.binaryInBroadcastAllowed) }
            return defects
        }
    }

    /// The matrix in catalogue order: refused cells numbered BI, accepted cells BV.
    static func all() -> [OptionMatrixCase] {
        var cases: [OptionMatrixCase] = []
        var refused = 0
        var valid = 0
        for transmission in Transmission.allCases {
            for encryption in Encryption.allCases {
                for payload in Payload.allCases {
                    let probe = OptionMatrixCase(id: "", transmission: transmission, encryption: encryption, payload: payload)
                    let number: Int
                    if probe.accepted { valid += 1; number = valid } else { refused += 1; number = refused }
                    let id = CaseID(String(format: "BFT/OPT/%@-%02d", probe.accepted ? "BV" : "BI", number))
                    cases.append(OptionMatrixCase(id: id, transmission: transmission, encryption: encryption, payload: payload))
                }
            }
        }
        return cases
    }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (_, tester) = try await stage.connectedPair()
        if encryption == .encrypted { try await stage.secure(0, with: tester) }
        let (dictionary, data) = Self.payload(payload)
        let receiver: UserID? = transmission == .broadcast ? nil : tester
        let described = "\(options.names.joined(separator: " + ")) with \(payload)"
        do {
            let id = try await stage.subject.send(dictionary: dictionary, data: data, to: receiver, options: options)
            stage.context.log.note("accepted: \(described), packet \(id)")
            return accepted ? .pass("accepted \(described), packet id \(id)")
                            : .fail("accepted \(described) (packet id \(id)); the document refuses it")
        } catch {
            stage.context.log.note("refused: \(described): \(error)")
            return accepted ? .fail("refused \(described): \(error)")
                            : try stage.judgeRefusal(error, of: described, by: rules)
        }
    }

    /// How the catalogue's title starts for this cell, e.g. `MeshTransmission + no encryption flag`.
    var transmissionTitle: String {
        let first = switch transmission {
        case .direct: "DirectTransmission"
        case .mesh: "MeshTransmission"
        case .full: "FullTransmission"
        case .broadcast: "BroadcastReceiver"
        }
        let second = switch encryption {
        case .noEncrypted: "NoEncrypted"
        case .encrypted: "Encrypted"
        case .unspecified: "no encryption flag"
        }
        return "\(first) + \(second)"
    }

    /// The catalogue's words for the payload.
    var payloadTitle: String {
        switch payload {
        case .dictionary: "dictionary only"
        case .binary: "binary data only"
        case .both: "dictionary and binary data"
        case .neither: "neither dictionary nor data"
        }
    }

    static func payload(_ payload: Payload) -> ([String: TransmitterValue]?, Data?) {
        let dictionary: [String: TransmitterValue] = ["text": .string("blueproof option matrix")]
        let data = Data((0..<64).map { UInt8($0) })
        return switch payload {
        case .dictionary: (dictionary, nil)
        case .binary: (nil, data)
        case .both: (dictionary, data)
        case .neither: (nil, nil)
        }
    }
}

