import BlueproofBackend
import BlueproofConformance
import BlueproofTestSupport
import BlueproofTransfer
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The runner's transfer cases on btvirt, in process: each passes on the reference transfer
/// and fails on a deliberately broken variant (``TransferFaults``); a controller killed
/// mid-case makes that case an error and the run goes on with fresh controllers.
extension Integration {
    @Suite("Conformance runner cases", .serialized)
    struct RunCaseTests {
        /// Runs the cases matching `filter` with `faults` on btvirt; reports and captures in `folder`.
        static func run(_ filter: [String], faults: TransferFaults = .none, registry: CaseRegistry? = nil,
                        catalogue: Catalogue? = nil, in folder: WorkFolder) async throws -> RunReport {
            let root = Self.root
            let profile = try Profile.loadDefault(path: "\(root)/Conformance/profiles/bridgefy-ios.yaml")
            let configuration = RunConfiguration(
                profile: profile, catalogue: try catalogue ?? Catalogue.load(path: "\(root)/Conformance/catalogue.yaml"),
                registry: registry ?? CaseRegistry.transfer(profile: profile), controller: .btvirt,
                filter: CaseFilter(filter), reportsRoot: folder.file("Reports"), capturesRoot: folder.file("Captures"),
                workDirectory: folder.file("work"), caseTimeout: .seconds(40), transferFaults: faults)
            return try await Runner(configuration).run()
        }

        static let root: String = {
            var url = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { url.deleteLastPathComponent() }
            return url.path
        }()

        static func verdicts(_ report: RunReport) -> [String: Verdict] {
            Dictionary(report.cases.map { ($0.id.rawValue, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        }

        @Test("btvirt: every implemented case passes on the reference transfer", .requires(.btvirt, .preload),
              .timeLimit(.minutes(5)))
        func referencePasses() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-reference")
            defer { folder.cleanUp() }
            let report = try await Self.run([], in: folder)
            #expect(report.cases.count == CaseRegistry.transfer(profile: try Profile.loadDefault(
                path: "\(Self.root)/Conformance/profiles/bridgefy-ios.yaml")).cases.count)
            for item in report.cases {
                #expect(item.verdict == .pass, "\(item.id): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
                #expect(item.captures.count == 2)
                for capture in item.captures {
                    #expect(capture.contains("/\(item.id.pathComponent)/node"), "\(capture)")
                    #expect(FileManager.default.fileExists(atPath: capture))
                }
            }
        }

        /// One broken variant: the named cases fail with it, naming why.
        static let variants: [(name: String, faults: TransferFaults, failing: [String])] = [
            ("chunks one byte short", TransferFaults(chunkSizeDelta: -1), ["CBT/CHUNK/BV-01"]),
            ("EOM omitted", TransferFaults(omitEndOfMessage: true), ["CBT/CHUNK/BV-02", "CBT/FLOW/BV-01", "CBT/ROLE/BV-03"]),
            ("RSSI gate ignored", TransferFaults(ignoreRSSIGate: true), ["CBT/GATE/BI-01", "CBT/GATE/BI-02"]),
            ("RSSI at the gate refused", TransferFaults(refuseAtGate: true), ["CBT/GATE/BV-02"]),
            ("no write-back", TransferFaults(skipWriteBack: true), ["CBT/ROLE/BV-01", "CBT/ROLE/BV-02"]),
            ("no cleanup", TransferFaults(skipCleanup: true), ["CBT/CLEAN/BV-01"]),
        ]

        @Test("btvirt: chunks one byte short fail CBT/CHUNK/BV-01", .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func brokenChunkSize() async throws { try await check(Self.variants[0]) }

        @Test("btvirt: EOM omitted fails CBT/CHUNK/BV-02, CBT/FLOW/BV-01 and CBT/ROLE/BV-03", .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func brokenEndOfMessage() async throws { try await check(Self.variants[1]) }

        @Test("btvirt: an ignored RSSI gate fails CBT/GATE/BI-01 and BI-02", .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func brokenGateIgnored() async throws { try await check(Self.variants[2]) }

        @Test("btvirt: a gate refusing -50 dBm fails CBT/GATE/BV-02", .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func brokenGateStrict() async throws { try await check(Self.variants[3]) }

        @Test("btvirt: no write-back fails CBT/ROLE/BV-01 and BV-02", .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func brokenWriteBack() async throws { try await check(Self.variants[4]) }

        @Test("btvirt: no cleanup fails CBT/CLEAN/BV-01", .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func brokenCleanup() async throws { try await check(Self.variants[5]) }

        private func check(_ variant: (name: String, faults: TransferFaults, failing: [String])) async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-variant")
            defer { folder.cleanUp() }
            let report = try await Self.run(variant.failing, faults: variant.faults, in: folder)
            #expect(report.cases.count == variant.failing.count)
            for item in report.cases {
                #expect(item.verdict == .fail, "\(variant.name): \(item.id) \(item.verdict): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
                print("variant \(variant.name): \(item.id) \(item.verdict.rawValue): \(item.reasonWithFrames)")
            }
        }

        @Test("btvirt: a controller killed mid-case makes that case an error; the next case passes on fresh controllers",
              .requires(.btvirt, .preload), .timeLimit(.minutes(2)))
        func controllerKilledMidRun() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-kill")
            defer { folder.cleanUp() }
            let text = try String(contentsOfFile: "\(Self.root)/Conformance/catalogue.yaml", encoding: .utf8)
            let catalogue = try Catalogue(yaml: Self.withTestGroup(text))
            let profile = try Profile.loadDefault(path: "\(Self.root)/Conformance/profiles/bridgefy-ios.yaml")
            let standard = CaseRegistry.transfer(profile: profile)
            let next = try #require(standard.lookup("CBT/CHUNK/BV-02"))
            let registry = CaseRegistry([KillsItsController(), next])
            let report = try await Self.run(["TEST/HARNESS/BV-01", "CBT/CHUNK/BV-02"], registry: registry, catalogue: catalogue, in: folder)
            // Catalogue order: CBT first, then the test group.
            let verdicts = Self.verdicts(report)
            #expect(verdicts["TEST/HARNESS/BV-01"] == .error)
            #expect(report.cases.first { $0.id == "TEST/HARNESS/BV-01" }?.reason.contains("controller died") == true,
                    "\(report.cases.map(\.reason))")
            #expect(verdicts["CBT/CHUNK/BV-02"] == .pass)
            #expect(report.failed)
        }
    }
}

extension Integration.RunCaseTests {
    /// The catalogue with a test-only group of cases the runner must survive.
    static func withTestGroup(_ text: String) -> String {
        text + """

          - code: TEST/HARNESS
            title: "Test only: cases that break the harness"
            cases:
              - id: TEST/HARNESS/BV-01
                title: "The controller is killed while the case waits on it"
                source: {document: corebluetooth-transfer-sample.md, section: "Overview"}
                kind: air
                profile: []
                status: implemented
              - id: TEST/HARNESS/BV-02
                title: "The case never ends"
                source: {document: corebluetooth-transfer-sample.md, section: "Overview"}
                kind: air
                profile: []
                status: implemented

        """
    }

    @Test("btvirt: a case that never ends is an error after its timeout; the run goes on",
          .requires(.btvirt, .preload), .timeLimit(.minutes(1)))
    func caseTimeout() async throws {
        try RequiredComponent.require(.btvirt, .preload)
        let folder = try WorkFolder("run-timeout")
        defer { folder.cleanUp() }
        let profile = try Profile.loadDefault(path: "\(Self.root)/Conformance/profiles/bridgefy-ios.yaml")
        let catalogue = try Catalogue(yaml: Self.withTestGroup(
            try String(contentsOfFile: "\(Self.root)/Conformance/catalogue.yaml", encoding: .utf8)))
        let next = try #require(CaseRegistry.transfer(profile: profile).lookup("CBT/ROLE/BV-01"))
        let configuration = RunConfiguration(
            profile: profile, catalogue: catalogue, registry: CaseRegistry([NeverEnds(), next]), controller: .btvirt,
            reportsRoot: folder.file("Reports"), capturesRoot: folder.file("Captures"), workDirectory: folder.file("work"),
            caseTimeout: .seconds(2))
        let report = try await Runner(configuration).run()
        let verdicts = Self.verdicts(report)
        #expect(verdicts["TEST/HARNESS/BV-02"] == .error)
        #expect(report.cases.first { $0.id == "TEST/HARNESS/BV-02" }?.reason == "timed out after 2.0 seconds",
                "\(report.cases.map(\.reason))")
        #expect(verdicts["CBT/ROLE/BV-01"] == .pass)
    }
}

/// Test only: waits for a scan result that never comes (no one advertises).
private struct NeverEnds: ConformanceCase {
    let id: CaseID = "TEST/HARNESS/BV-02"
    let needs = CaseNeeds(controllers: 1)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        for await _ in try await context.hosts[0].discover(services: [TransferProfile.sampleService]) {}
        return .pass("the scan ended")
    }
}

/// Test only: kills its own btvirt (SIGKILL, by the pid the backend reports), then waits on
/// the controller for a scan that can never end.
private struct KillsItsController: ConformanceCase {
    let id: CaseID = "TEST/HARNESS/BV-01"
    let needs = CaseNeeds(controllers: 2)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard let fact = context.backendFacts.first(where: { $0.name == "backend" }),
              let match = fact.value.firstMatch(of: #/pid (\d+)/#), let pid = pid_t(match.1) else {
            return .error("no pid in the backend's facts: \(context.backendFacts)")
        }
        context.log.note("killing btvirt, pid \(pid)")
        kill(pid, SIGKILL)
        let devices = try await context.hosts[1].discover(services: [TransferProfile.sampleService])
        for await _ in devices {}
        return .pass("the scan ended without the controller")
    }
}
