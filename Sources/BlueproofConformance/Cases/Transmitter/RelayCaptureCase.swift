import BlueproofTransmitter
import Foundation

/// BFT/DLV/BV-13 (bridgefy-ios-sdk-readme.md, "Direct and mesh transmission": a mesh packet
/// hops through the nodes between sender and receiver): the subject relays between two nodes
/// out of range of each other, and its own capture must show the mesh packet arrive from the
/// sender's link and leave on the receiver's, as transmitter data frames rebuilt from the
/// link's chunks. Needs the case's captures, so it runs over controllers only.
enum RelayCaptureCase {
    static let id: CaseID = "BFT/DLV/BV-13"

    static func make() -> MeshLineCase {
        var item = MeshLineCase(id: id, role: .relay, brokenBy: [.meshNeverRelays]) { stage, sender, relay, receiver, users in
            guard stage.context.captures.count > relay else {
                return .notApplicable("judged on the relay's capture: the case must run over controllers")
            }
            let id = try await stage.send(from: sender, dictionary: MeshLineCase.text, to: users[receiver], options: .meshTransmission)
            let delivered = await stage.logs[receiver].received(id, within: stage.airTimeout) != nil
            let path = stage.context.captures[relay]
            let frames = try CaptureEvidence(path: path).transmitterDataFrames.filter { $0.data.packetID == id }
            let arrived = frames.filter { $0.direction == .received }.map(\.frame)
            let left = frames.filter { $0.direction == .sent }.map(\.frame)
            guard !arrived.isEmpty else {
                return .fail("the mesh packet \(id) never appears arriving in the relay's capture (\(delivered ? "though it was delivered" : "nor was it delivered"))")
            }
            guard !left.isEmpty else {
                return .fail("the mesh packet \(id) arrives in the relay's capture but never leaves it",
                             findings: [Finding("packet \(id) in, never out", capture: path, frames: arrived)])
            }
            guard delivered else { return .fail("the mesh packet \(id) left the relay but never reached the receiver") }
            return .pass("the relay's capture shows the mesh packet \(id) arrive (frame \(arrived[0])) and leave (frame \(left[0])); the receiver got it",
                         findings: [Finding("packet \(id) in and out", capture: path, frames: arrived + left)])
        }
        item.judgesCaptures = true
        return item
    }
}
