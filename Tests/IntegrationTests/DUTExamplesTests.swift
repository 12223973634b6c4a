import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// The suite judging implementations it did not write (issue 13): the Bumble programs of
/// examples/duts (Python, sharing no code with blueproof) under `blueproof run --dut-exec`.
/// The correct programs pass every case of their role; each broken variant fails the cases
/// that name its fault.
extension Integration {
    @Suite("Bumble DUTs under --dut-exec", .serialized)
    struct DUTExamplesTests {
        static var root: String { Integration.RunCaseTests.root }

        /// The --dut-exec command for `program` (`peripheral`, `central`, or `both`) with `fault`.
        static func command(_ python: String, _ program: String, fault: String? = nil) -> String {
            let environment = fault.map { "DUT_FAULT=\($0) " } ?? ""
            let script = program == "both" ? "transfer_$BLUEPROOF_ROLE.py" : "transfer_\(program).py"
            // Double quotes: the script's name may hold $BLUEPROOF_ROLE.
            let run = "\(environment)exec '\(python)' \"\(root)/examples/duts/\(script)\""
            guard program == "both" else { return run }
            return "case \"$BLUEPROOF_ROLE\" in peripheral|central) \(run);; *) exit 77;; esac"
        }

        static func verdicts(_ report: RunReport?) -> [String: Verdict] {
            Dictionary(uniqueKeysWithValues: (report?.cases ?? []).map { ($0.id.rawValue, $0.verdict) })
        }

        @Test("the correct peripheral passes the cases that judge a peripheral under test, the central those that judge a central; the others are not-applicable (status 77); the report names the program",
              .requires(.cli, .btvirt, .preload, .bumble), .timeLimit(.minutes(4)))
        func correctPrograms() async throws {
            let (cli, python) = try (RequiredComponent.require(.cli, .btvirt, .preload)[0], RequiredComponent.require(.bumble)[0])
            let folder = try WorkFolder("dut-bumble")
            defer { folder.cleanUp() }
            for (program, node) in [("peripheral", 0), ("central", 1)] {
                let result = try await RunDUTTests.runDUT(cli, folder, ["--filter", "CBT/*", "--dut-exec", Self.command(python, program)])
                #expect(result.status == 0, "\(program): \(result.stdout)")
                let report = try #require(result.report)
                #expect(Self.verdicts(report) == (try RunDUTTests.transferVerdicts(judging: [node])), "\(program): \(result.stdout)")
                #expect(report.implementation?.hasPrefix("transfer-\(program) ") == true, "\(String(describing: report.implementation))")
            }
        }

        /// Each fault of the examples' README, run on the cases that name it.
        static let faults: [(program: String, fault: String, failing: [String])] = [
            ("peripheral", "chunk-mtu-minus-2", ["CBT/CHUNK/BV-01"]),
            ("peripheral", "chunk-small", ["CBT/CHUNK/BV-01"]),
            ("peripheral", "no-eom", ["CBT/CHUNK/BV-02"]),
            ("peripheral", "notify-before-subscribe", ["CBT/GATT/BV-03"]),
            ("peripheral", "wrong-service-uuid", ["CBT/GATT/BV-07"]),
            ("peripheral", "write-with-response-only", ["CBT/GATT/BV-07"]),
            ("central", "ignore-rssi-gate", ["CBT/GATE/BI-01", "CBT/GATE/BI-03", "CBT/GATE/BV-04"]),
            ("central", "strict-gate", ["CBT/GATE/BV-02"]),
            ("central", "no-write-back", ["CBT/ROLE/BV-01", "CBT/ROLE/BV-02"]),
            ("central", "write-request", ["CBT/ROLE/BV-02"]),
            ("central", "no-unsubscribe", ["CBT/CLEAN/BV-01"]),
            ("central", "stay-connected", ["CBT/CLEAN/BV-01"]),
            // issue 14
            ("peripheral", "empty-chunk", ["CBT/CHUNK/BV-03"]),
            ("peripheral", "drop-short-chunks", ["CBT/CHUNK/BV-06"]),
            ("central", "keep-eom", ["CBT/CHUNK/BV-05", "CBT/ROLE/BV-05"]),
            ("central", "filter-duplicates", ["CBT/GATT/BV-06"]),
        ]

        @Test("every broken variant fails the cases that name its fault, and the run exits 1",
              .requires(.cli, .btvirt, .preload, .bumble), .timeLimit(.minutes(6)))
        func brokenVariants() async throws {
            let (cli, python) = try (RequiredComponent.require(.cli, .btvirt, .preload)[0], RequiredComponent.require(.bumble)[0])
            let folder = try WorkFolder("dut-bumble-faults")
            defer { folder.cleanUp() }
            for variant in Self.faults {
                let filters = variant.failing.flatMap { ["--filter", $0] }
                let result = try await RunDUTTests.runDUT(cli, folder, filters + ["--dut-exec", Self.command(python, variant.program, fault: variant.fault)])
                #expect(result.status == 1, "\(variant.fault): \(result.stdout)")
                let verdicts = Self.verdicts(result.report)
                #expect(verdicts == Dictionary(uniqueKeysWithValues: variant.failing.map { ($0, Verdict.fail) }),
                        "\(variant.fault): \(result.stdout)")
                #expect(result.report?.implementation?.hasSuffix("fault=\(variant.fault)") == true)
            }
        }

        /// CBT/FLOW/BV-03 alone takes some three and a half minutes on Rootcanal (one buffer).
        @Test("Rootcanal: one program per role, every CBT case with a place for it passes",
              .requires(.cli, .rootcanal, .bumble), .timeLimit(.minutes(12)))
        func rootcanal() async throws {
            let (cli, python) = try (RequiredComponent.require(.cli, .rootcanal)[0], RequiredComponent.require(.bumble)[0])
            let folder = try WorkFolder("dut-bumble-rc")
            defer { folder.cleanUp() }
            let result = try await RunDUTTests.runDUT(cli, folder, ["--controller", "rootcanal", "--filter", "CBT/*",
                                                              "--dut-exec", Self.command(python, "both")])
            #expect(result.status == 0, "\(result.stdout)")
            #expect(Self.verdicts(result.report) == (try RunDUTTests.transferVerdicts(judging: [0, 1])), "\(result.stdout)")
        }
    }
}
