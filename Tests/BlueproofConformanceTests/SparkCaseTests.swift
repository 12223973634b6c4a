@testable import BlueproofConformance
import BlueproofTransmitter
import Testing

/// issue 17: the SPK cases against an implementation under test that offers no Spark subject:
/// not-applicable, naming why, never a verdict on the reference in its place. (Through the
/// control protocol's Spark commands: `RunSparkTests`, the `dut…` tests.)
@Suite("Spark cases with an implementation under test")
struct SparkCaseTests {
    /// Stands for `--dut`: a provider of an implementation under test that makes nothing.
    struct DeviceProvider: TransmitterProvider {
        var name: String { "tcp:127.0.0.1:1" }
        var isDeviceUnderTest: Bool { true }
        func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] {
            throw TransmitterUnavailable("none in this test")
        }
        func release(for context: CaseContext) async {}
    }

    @Test("every SPK case is not-applicable on an implementation under test with no Spark subject, naming the control protocol")
    func deviceUnderTest() async throws {
        let catalogue = try Fixtures.catalogue()
        for item in SparkCases.all() {
            let entry = try #require(catalogue.entries.first { $0.id == item.id })
            let context = CaseContext(entry: entry, profile: try Fixtures.defaultProfile(), hosts: [], captures: [], radio: nil,
                                      transmitterProvider: DeviceProvider(), transferFaults: .none, log: CaseLog())
            let outcome = try await item.run(context)
            #expect(outcome.verdict == .notApplicable, "\(item.id): \(outcome.verdict) \(outcome.reason)")
            let unjudgeable = SparkCases.unjudgeable.contains { $0.id == item.id }
            #expect(unjudgeable || outcome.reason.contains("offers no Spark subject: its cases need the control protocol's Spark commands"), "\(item.id): \(outcome.reason)")
        }
    }
}
