@testable import BlueproofConformance
import Testing

/// The BFT/ATK cases alone (issue 15), for a quick run of the attack group: the same check as
/// `TransmitterCaseTests.reference` (pass on the reference, fail on the broken variant).
@Suite("Attack cases on the reference and their broken variants")
struct AttackCaseTests {
    @Test("each BFT/ATK case passes on the reference and fails on its variant", .serialized,
          arguments: TransmitterCaseTests.inProcess.map(\.id.rawValue).filter { $0.hasPrefix("BFT/ATK/") })
    func attack(id: String) async throws {
        try await TransmitterCaseTests().reference(id: id)
    }
}
