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
        /// Each case with each defect that breaks it, one at a time ("BLN/SCAN/BV-01 bluenetScanAllCrownstonesOnly"):
        /// a defect that fails its case only beside another would not show the rule it names.
        static let variants = BluenetCases.all().flatMap { item in item.brokenBy.map(\.rawValue).sorted().map { "\(item.id.rawValue) \($0)" } }

        /// The case and the defect of a ``variants`` entry.
        static func variant(_ entry: String) throws -> (item: BluenetCase, defect: Defect) {
            let parts = entry.split(separator: " ").map(String.init)
            let item = try #require(BluenetCases.all().first { $0.id.rawValue == parts.first })
            let defect = try #require(parts.last.flatMap(Defect.init(rawValue:)), "\(entry)")
            return (item, defect)
        }

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

        /// How many variant runs go at once: each waits on its own btvirt and the library's
        /// timers, and no BLN case touches process-wide state.
        static let width = 4

        @Test("btvirt: each BLN case fails on each of its broken variants alone", .requires(.btvirt, .preload), .timeLimit(.minutes(8)))
        func variantFails() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            await forEach(Self.variants, atMost: Self.width) { variant in
                let (item, defect) = try Self.variant(variant)
                let folder = try WorkFolder("run-bln-broken")
                defer { folder.cleanUp() }
                let report = try await RunTransmitterTests.run([item.id.rawValue], defects: [defect], in: folder)
                let outcome = try #require(report.cases.first, "\(variant)")
                #expect(outcome.verdict == .fail, "\(variant): \(outcome.verdict) \(outcome.reasonWithFrames)")
            }
        }

        // issue 18: the Bluenet library over the control protocol
        /// `blueproof run --dut-exec` with `blueproof dut` (its library broken by `defects`) as
        /// the implementation under test, started per case as `bluenet`, refusing other roles.
        static func againstDUTExec(_ filter: [String], defects: Set<Defect> = [], in folder: WorkFolder) async throws
            -> (status: Int32, stdout: String, report: RunReport?) {
            let cli = try RequiredComponent.require(.cli)[0]
            let broken = defects.map { " --defect \($0.rawValue)" }.sorted().joined()
            let exec = "[ \"$BLUEPROOF_ROLE\" = bluenet ] || exit 77; exec '\(cli)' dut --controller \"$BLUEPROOF_HCI\" --listen \"$BLUEPROOF_CONTROL\"\(broken)"
            return try await RunDUTTests.runDUT(cli, folder, ["--dut-exec", exec] + filter.flatMap { ["--filter", $0] })
        }

        @Test("blueproof dut started per case (--dut-exec, role bluenet): every BLN case passes through the control protocol",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(8)))
        func dutExecPasses() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            let folder = try WorkFolder("run-bln-dut")
            defer { folder.cleanUp() }
            let result = try await Self.againstDUTExec(["BLN/*"], in: folder)
            #expect(result.status == 0, "\(result.stdout)")
            let report = try #require(result.report)
            #expect(report.cases.map(\.id.rawValue) == Self.ids)
            for item in report.cases {
                #expect(item.verdict == .pass, "\(item.id): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
                // Judged on the launched implementation, not on a library in the runner.
                #expect(item.log.contains { $0.contains("Bluenet library exec: ") }, "\(item.id) did not drive the launched implementation")
            }
        }

        /// A library that says yes to every Bluenet command (every promise fulfilled) and
        /// publishes nothing. Against all 36 cases it passed two, whose rule is one answer it
        /// gives anyway (isReady returns; disconnect with nothing connected fulfils), failed 8
        /// and was an error in 26 (nothing published: preconditions not met); the test keeps
        /// quick ones of each kind.
        static let yesMan = RunDUTTests.pythonControlServer(role: "bluenet", version: 6) + #"""
        for count, line in enumerate(stream, 1):
            request = json.loads(line)
            answer = {"id": request["id"], "ok": True}
            command = request["command"]
            if command == "bluenetOn": answer.update(subscription=count)
            if command == "bluenetOff": answer.update(existed=True)
            if command in ("bluenetConnect", "bluenetDisconnect", "bluenetSetSwitchState"): answer.update(outcome={"result": "fulfilled"})
            out(answer)
        """#

        @Test("a library that says yes to everything and publishes nothing passes none of these BLN cases",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func dutYesMan() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("run-bln-dut-yes")
            defer { folder.cleanUp() }
            try Self.yesMan.write(toFile: folder.file("yes.py"), atomically: true, encoding: .utf8)
            let result = try await RunDUTTests.runDUT(cli, folder, ["--dut-exec", "exec python3 '\(folder.file("yes.py"))'",
                                                              "--filter", "BLN/CONN/BI-01", "--filter", "BLN/CONN/BV-06", "--filter", "BLN/LOC/BV-06"])
            #expect(result.status == 1, "\(result.stdout)")
            let report = try #require(result.report)
            #expect(report.cases.count == 3)
            for item in report.cases {
                #expect(item.verdict == .fail || item.verdict == .error, "\(item.id): \(item.verdict) \(item.reason)")
            }
        }

        @Test("a broken Bluenet library behind the control protocol fails the case its defect breaks", .requires(.btvirt, .preload, .cli),
              .timeLimit(.minutes(8)))
        func dutVariantFails() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            await forEach(Self.variants, atMost: Self.width) { variant in
                let (item, defect) = try Self.variant(variant)
                let folder = try WorkFolder("run-bln-dut-broken")
                defer { folder.cleanUp() }
                let result = try await Self.againstDUTExec([item.id.rawValue], defects: [defect], in: folder)
                let outcome = try #require(result.report?.cases.first, "\(variant): \(result.stdout)")
                #expect(outcome.verdict == .fail, "\(variant): \(outcome.verdict) \(outcome.reasonWithFrames)\n\(outcome.log.joined(separator: "\n"))")
            }
        }
    }
}
