@testable import BlueproofConformance
import BlueproofTransmitter
import Testing

/// BFT/ATK/BV-01 on its own (TransmitterCaseTests runs it with every other case): the reference
/// refuses an impostor under its peer's id; with `unsignedHello` it takes the impostor for the peer.
@Suite("Hello impersonation case")
struct HelloImpersonationCaseTests {
    @Test("BFT/ATK/BV-01 passes on the reference and fails with unsignedHello")
    func impostor() async throws {
        let item = try #require(TransmitterCaseTests.cases.first { $0.id.rawValue == "BFT/ATK/BV-01" })
        let reference = try await TransmitterCaseTests.run(item, defects: [])
        #expect(reference.verdict == .pass, "reference: \(reference.reason)")
        let broken = try await TransmitterCaseTests.run(item, defects: [.unsignedHello])
        #expect(broken.verdict == .fail, "unsignedHello: \(broken.reason)")
    }
}
