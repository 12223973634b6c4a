import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// The BFT and CHAT cases issue 12 changed or added, over real btvirt controllers: the
/// reference passes each (the hop-limit line needs more controllers than a btvirt gives: not
/// applicable), and the variants that break their rules fail them on the air too, the second
/// process of BFT/KEY/BV-02 being a real `blueproof dut --no-radio`.
extension Integration {
    @Suite("Changed transmitter cases on btvirt", .serialized)
    struct RunTransmitterHoleTests {
        static let changed = ["BFT/DLV/BI-01", "BFT/DLV/BV-04", "BFT/DLV/BV-06", "BFT/DLV/BI-05", "BFT/SES/BV-01", "BFT/KEY/BV-02",
                              "BFT/SEC/BV-07", "BFT/SIZE/BV-1[1567]", "CHAT/APP/BV-0[78]"]

        static func run(_ filter: [String], defects: Set<Defect> = [], in folder: WorkFolder) async throws -> [String: (Verdict, String)] {
            let cli = try RequiredComponent.require(.cli)[0]
            let root = Integration.RunCaseTests.root
            let profile = try Profile.loadDefault(path: "\(root)/Conformance/profiles/bridgefy-ios.yaml")
            var configuration = RunConfiguration(
                profile: profile, catalogue: try Catalogue.load(path: "\(root)/Conformance/catalogue.yaml"),
                registry: CaseRegistry.standard(profile: profile), controller: .btvirt, filter: CaseFilter(filter),
                reportsRoot: folder.file("Reports"), capturesRoot: folder.file("Captures"),
                workDirectory: folder.file("work"), caseTimeout: .seconds(60))
            configuration.transmitterProvider = ReferenceTransmitterProvider(
                link: .ble, defects: defects, sessionRoot: URL(fileURLWithPath: folder.file("sessions")), executable: URL(fileURLWithPath: cli))
            let report = try await Runner(configuration).run()
            return Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id.rawValue, ($0.verdict, $0.reasonWithFrames)) })
        }

        @Test("btvirt: the changed cases pass on the reference over its BLE link",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func reference() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            let folder = try WorkFolder("run-bft-holes")
            defer { folder.cleanUp() }
            let verdicts = try await Self.run(Self.changed, in: folder)
            #expect(verdicts.count == 13)
            for (id, (verdict, reason)) in verdicts {
                #expect(verdict == (id == "BFT/DLV/BI-05" ? .notApplicable : .pass), "\(id): \(reason)")
            }
        }

        @Test("btvirt: failures hidden, packets not held, sessions not persisted fail their cases on the air",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func broken() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            let folder = try WorkFolder("run-bft-holes-broken")
            defer { folder.cleanUp() }
            let verdicts = try await Self.run(["BFT/DLV/BI-01", "BFT/DLV/BV-04", "BFT/KEY/BV-02"],
                                              defects: [.directNeverFails, .meshNeverHolds, .sessionNotPersisted], in: folder)
            #expect(verdicts.count == 3)
            for (id, (verdict, reason)) in verdicts { #expect(verdict == .fail, "\(id): \(reason)") }
        }
    }
}
