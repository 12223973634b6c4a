import BlueproofBackend
@testable import BlueproofConformance
import BlueproofSpark
import BlueproofTestSupport
import Foundation
import Testing

/// issue 17: the SPK cases in the runner, on our own controllers: each passes on the reference
/// Spark core and fails on the broken variant (a `SparkDefects` fault) that breaks its rule.
extension Integration {
    @Suite("Spark cases in the runner", .serialized)
    struct RunSparkTests {
        /// Runs the SPK cases matching `filter` with their subject from `provider` on `controller`.
        static func run(_ filter: [String], provider: (any SparkProvider)? = nil, controller: BackendSpec = .btvirt,
                        in folder: WorkFolder) async throws -> RunReport {
            let root = Integration.RunCaseTests.root
            let profile = try Profile.loadDefault(path: "\(root)/Conformance/profiles/bridgefy-ios.yaml")
            let configuration = RunConfiguration(
                profile: profile, catalogue: try Catalogue.load(path: "\(root)/Conformance/catalogue.yaml"),
                registry: CaseRegistry(SparkCases.all(provider: provider)), controller: controller, filter: CaseFilter(filter),
                reportsRoot: folder.file("Reports"), capturesRoot: folder.file("Captures"),
                workDirectory: folder.file("work"), caseTimeout: .seconds(120))
            return try await Runner(configuration).run()
        }

        static func expectAllPass(_ report: RunReport) {
            #expect(report.cases.count == SparkCases.all().count)
            let unjudgeable = Set(SparkCases.unjudgeable.map(\.id))
            for item in report.cases {
                let expected: Verdict = unjudgeable.contains(item.id) ? .notApplicable : .pass
                #expect(item.verdict == expected, "\(item.id): \(item.verdict) \(item.reason)\n\(item.log.joined(separator: "\n"))")
            }
        }

        @Test("btvirt: every SPK case in the runner passes on the reference", .requires(.btvirt, .preload), .timeLimit(.minutes(10)))
        func referencePasses() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-spark")
            defer { folder.cleanUp() }
            Self.expectAllPass(try await Self.run(["SPK/*"], in: folder))
        }

        @Test("Rootcanal: every SPK case in the runner passes on the reference", .requires(.rootcanal, .preload), .timeLimit(.minutes(20)))
        func referenceRootcanal() async throws {
            try RequiredComponent.require(.rootcanal, .preload)
            let folder = try WorkFolder("run-spark-rootcanal")
            defer { folder.cleanUp() }
            Self.expectAllPass(try await Self.run(["SPK/*"], controller: .rootcanal, in: folder))
        }

        /// The defects the SPK cases name, each with the cases it breaks.
        static let variants: [(name: String, cases: [String])] = SparkDefects.named.compactMap { entry in
            let broken = SparkCases.brokenBy.filter { $0.value.contains(entry.defect) }.map(\.key.rawValue).sorted()
            return broken.isEmpty ? nil : (entry.name, broken)
        }

        /// What each variant's failing reason says: the rule it broke, not some other slip.
        static let because: [String: String] = [
            "declineTakenAsAccept": "reported accepted for its offer", "secondOfferKept": "made a second offer available",
            "keyUnchecked": "was made available, not declined with the key error", "metadataUnbounded": "instead of refusing",
            "closeKeepsPending": "completed after closeDataChannel", "deliversBeforeCallbacks": "before the callbacks were set",
            "progressSkipped": "no progress before done", "progressBackwards": "did not rise steadily",
            "completeOnLinkLoss": "cut by the lost link was reported complete", "digestUnchecked": "disagree with its SHA-256 was reported",
            "setupNeverCompletes": "no incomingDataConnectionAvailable", "acceptUnreported": "never dataConnectionAccepted",
            "severalRefused": "ended a second user's offer", "metadataLimitLow": "was refused: metadataTooLarge",
            "channelUnannounced": "never told of", "streamProgressReported": "progress has no meaning for streams",
            "streamTypedAsData": "not stream", "vanishedFileEndsAsDone": "reported the send done although its file vanished",
            "receivedDataDropped": "transferComplete held 0 bytes", "fileNameFromFirstComponent": "not \"bv-03.bin\"",
        ]

        @Test("btvirt: every SPK case fails on the Spark defect that breaks its rule", .requires(.btvirt, .preload),
              .timeLimit(.minutes(5)), arguments: Self.variants.map(\.name))
        func variantFails(defect name: String) async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let variant = try #require(Self.variants.first { $0.name == name })
            let defect = try #require(SparkDefects.named.first { $0.name == name }?.defect)
            let folder = try WorkFolder("run-spark-\(name)")
            defer { folder.cleanUp() }
            let report = try await Self.run(variant.cases, provider: ReferenceSparkProvider(defects: defect), in: folder)
            #expect(report.cases.map(\.id.rawValue).sorted() == variant.cases)
            for item in report.cases {
                #expect(item.verdict == .fail, "\(item.id) with \(name): \(item.verdict) \(item.reason)\n\(item.log.joined(separator: "\n"))")
                #expect(item.reason.contains(Self.because[name] ?? "\u{0}"), "\(item.id) with \(name) failed for another reason: \(item.reason)")
            }
        }

        @Test("every SPK case names a defect, and the registry holds them all")
        func everyCaseBroken() throws {
            let profile = try Profile.loadDefault(path: "\(Integration.RunCaseTests.root)/Conformance/profiles/bridgefy-ios.yaml")
            let registered = Set(CaseRegistry.standard(profile: profile).ids)
            for (id, defects) in SparkCases.brokenBy {
                #expect(!defects.isEmpty, "\(id) names no defect")
                #expect(registered.contains(id), "\(id) is not registered")
            }
        }
    }
}
