import BlueproofCapture
import BlueproofCheck
import BlueproofTransmitter
import Foundation

/// BFT/SEC/BV-04: encrypted content never appears in clear on the air
/// (bridgefy-ios-sdk-readme.md, "Secure connections"). The subject sends an encrypted packet
/// carrying a fresh marker to the tester; the tester's capture (what the subject put on the
/// air, as the tester's controller received it) must not hold the marker in any ACL packet or
/// reassembled L2CAP PDU. Needs the case's captures, so it runs over controllers only.
struct PlaintextCase: TransmitterCase {
    let id: CaseID = "BFT/SEC/BV-04"
    let nodes = 2
    let brokenBy: Set<Defect> = [.encryptionSkipped]
    let judgesCaptures = true

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        guard stage.context.captures.count >= 2 else {
            return .notApplicable("judged on the tester's capture: the case must run over controllers")
        }
        let (_, tester) = try await stage.connectedPair()
        try await stage.secure(0, with: tester)
        let marker = "blueproof-secret-\(UUID().uuidString)"
        let packet = try await stage.subject.send(dictionary: ["text": .string(marker)], data: nil, to: tester,
                                              options: [.encrypted, .directTransmission])
        let delivered = await stage.logs[1].received(packet, within: stage.airTimeout)
        let path = stage.context.captures[1]
        let records = try CaptureReader.read(path: path).records
        let checks = CaptureAnalyser.check(records, options: CheckOptions(plaintext: Array(marker.utf8)))
        guard let plaintext = checks.first(where: { $0.id == self.id.rawValue }) else {
            return .error("the capture check \(self.id) is missing")
        }
        if plaintext.verdict == .fail {
            return .fail("the marker of the encrypted packet \(packet) is in clear on the air",
                         findings: [Finding(plaintext.reason, capture: path, frames: plaintext.frames)])
        }
        guard delivered?.dictionary?["text"] == .string(marker) else {
            return .fail("the encrypted packet \(packet) was accepted but never delivered intact to the tester")
        }
        return .pass("the encrypted packet was delivered and its content is nowhere in clear in \(records.count) captured packets")
    }
}
