@testable import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// The BLN cases (issue 18) in the runner over btvirt: the reference Bluenet library on node 0,
/// plain advertisers and simulated Crownstones on the others; each case passes on the
/// reference and fails on the broken variant it names.
extension Integration {
    @Suite("Bluenet cases on btvirt", .serialized)
    struct RunBluenetTests {
        static let ids = BluenetCases.all().map(\.id.rawValue)

        @Test("btvirt: every BLN case passes on the reference Bluenet library", .requires(.btvirt, .preload),
              .timeLimit(.minutes(5)))
        func referencePasses() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bln")
            defer { folder.cleanUp() }
            let report = try await RunTransmitterTests.run(["BLN/*"], in: folder)
            #expect(report.cases.map(\.id.rawValue) == Self.ids)
            for item in report.cases {
                #expect(item.verdict == .pass, "\(item.id): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
            }
        }

        @Test("btvirt: each BLN case fails on its broken variant", .requires(.btvirt, .preload), .timeLimit(.minutes(5)),
              arguments: Self.ids)
        func variantFails(id: String) async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let item = try #require(BluenetCases.all().first { $0.id.rawValue == id })
            let folder = try WorkFolder("run-bln-broken")
            defer { folder.cleanUp() }
            let report = try await RunTransmitterTests.run([id], defects: item.brokenBy, in: folder)
            let outcome = try #require(report.cases.first)
            #expect(outcome.verdict == .fail, "\(id) with \(item.brokenBy.map(\.rawValue).sorted()): \(outcome.verdict) \(outcome.reasonWithFrames)")
        }
    }
}
