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
        /// `edit` rewrites the default profile's text first (another device's numbers).
        static func run(_ filter: [String], faults: TransferFaults = .none, registry: CaseRegistry? = nil,
                        catalogue: Catalogue? = nil, profile edit: ((String) -> String)? = nil,
                        in folder: WorkFolder) async throws -> RunReport {
            let root = Self.root
            let path = "\(root)/Conformance/profiles/bridgefy-ios.yaml"
            var profile = try Profile.loadDefault(path: path)
            if let edit {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let edited = edit(text)
                #expect(edited != text, "the profile edit changed nothing")
                profile = try Profile(yaml: edited, path: "edited-profile.yaml")
            }
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
              .timeLimit(.minutes(10)))
        func referencePasses() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-reference")
            defer { folder.cleanUp() }
            let report = try await Self.run([], in: folder)
            #expect(report.cases.count == CaseRegistry.transfer(profile: try Profile.loadDefault(
                path: "\(Self.root)/Conformance/profiles/bridgefy-ios.yaml")).cases.count)
            for item in report.cases {
                let expected: Verdict = Self.notApplicable.contains(item.id.rawValue) ? .notApplicable : .pass
                #expect(item.verdict == expected, "\(item.id): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
                guard expected == .pass else { continue }
                #expect(item.captures.count == 2)
                for capture in item.captures {
                    #expect(capture.contains("/\(item.id.pathComponent)/node"), "\(capture)")
                    #expect(FileManager.default.fileExists(atPath: capture))
                }
            }
        }

        /// One broken variant: the named cases fail with it, naming why (`because`, when given,
        /// is in every failing reason).
        static let variants: [(name: String, faults: TransferFaults, failing: [String], because: String?)] = [
            ("chunks one byte short", TransferFaults(chunkSizeDelta: -1), ["CBT/CHUNK/BV-01"], "chunk"),
            ("EOM omitted", TransferFaults(omitEndOfMessage: true), ["CBT/CHUNK/BV-02", "CBT/FLOW/BV-01", "CBT/ROLE/BV-03"], nil),
            ("RSSI gate ignored", TransferFaults(ignoreRSSIGate: true), ["CBT/GATE/BI-01", "CBT/GATE/BI-02"], "tried to connect"),
            ("RSSI at the gate refused", TransferFaults(refuseAtGate: true), ["CBT/GATE/BV-02"], "never connected"),
            ("no write-back", TransferFaults(skipWriteBack: true), ["CBT/ROLE/BV-01", "CBT/ROLE/BV-02"], nil),
            ("no cleanup", TransferFaults(skipCleanup: true), ["CBT/CLEAN/BV-01"], "never turned notifications off"),
            // The issue-12 finding: the host cut each 183-byte chunk to 182 and the case passed.
            ("chunks one byte too big", TransferFaults(chunkSizeDelta: 1), ["CBT/CHUNK/BV-01"], "-byte chunk; at most ATT_MTU - 3"),
            ("write-back to the wrong handle", TransferFaults(writeBackToWrongHandle: true), ["CBT/ROLE/BV-01", "CBT/ROLE/BV-02"], nil),
            ("write-back before EOM", TransferFaults(writeBackBeforeEndOfMessage: true), ["CBT/ROLE/BV-02"], "before the message ended"),
            ("RSSI above 0 dBm accepted", TransferFaults(acceptAboveMaximum: true), ["CBT/GATE/BI-03"], "tried to connect"),
            ("non-UTF-8 values dropped", TransferFaults(dropNonUTF8Values: true), ["CBT/CHUNK/BV-09"], "dropped the values"),
            ("message ended on a value ending in EOM", TransferFaults(endOnMarkerSuffix: true), ["CBT/CHUNK/BV-02"], "cut short"),
            ("secondary service", TransferFaults(secondaryService: true), ["CBT/GATT/BV-07"], "secondary service"),
            ("Write property added", TransferFaults(extraProperties: .write), ["CBT/GATT/BV-07"], "properties"),
            ("value not readable", TransferFaults(unreadableValue: true), ["CBT/GATT/BV-07"], "Read Request"),
            ("foreign service UUID", TransferFaults(foreignServiceUUID: true), ["CBT/GATT/BV-07"], "not the profile's service"),
            ("RSSI gate ignored on a walk-in", TransferFaults(ignoreRSSIGate: true), ["CBT/GATE/BV-04"], "below the -50 dBm gate"),
            // issue 14: the CBT cases the runner lacked
            ("payload limit ignored", TransferFaults(ignorePayloadLimit: true), ["CBT/CHUNK/BI-02"], "did not refuse"),
            ("empty chunk before EOM", TransferFaults(emptyChunkBeforeMarker: true), ["CBT/CHUNK/BV-03"], "not the marker alone"),
            ("EOM kept in the message", TransferFaults(keepMarkerInMessage: true), ["CBT/CHUNK/BV-05", "CBT/ROLE/BV-05"], "received"),
            ("chunks shorter than EOM dropped", TransferFaults(dropChunksShorterThanMarker: true), ["CBT/CHUNK/BV-06"], "were sent and"),
            // It indicates only where the central enabled indications, which ours never does: the
            // case fails it for the notifications that never come (before or after `ready`).
            ("chunks indicated", TransferFaults(indicateChunks: true), ["CBT/CHUNK/BV-08"], "Handle Value Notification"),
            ("a chunk that is EOM sent whole", TransferFaults(markerChunkUnsplit: true), ["CBT/CHUNK/BV-04"], nil),
            ("a chunk lost past 512 KiB", TransferFaults(loseChunkAt: 600_000),
             ["CBT/CHUNK/BV-07", "CBT/FLOW/BV-02", "CBT/FLOW/BV-03", "CBT/ROLE/BV-04"], "bytes were sent"),
            ("a chunk lost at 1000 bytes", TransferFaults(loseChunkAt: 1000), ["CBT/ROLE/BV-06"], "bytes were sent"),
            ("service UUID not advertised", TransferFaults(unadvertisedService: true), ["CBT/GATT/BV-01"], "no advertising report lists"),
            ("write without response missing", TransferFaults(missingProperties: .writeWithoutResponse), ["CBT/GATT/BV-02"], "missing"),
            ("foreign service UUID for a central built like the sample", TransferFaults(foreignServiceUUID: true), ["CBT/GATT/BV-04"],
             "the sample's service"),
            ("advertising kept on", TransferFaults(keepAdvertising: true), ["CBT/GATT/BV-05"], "after the peripheral stopped"),
            ("duplicate reports filtered", TransferFaults(filterDuplicateReports: true), ["CBT/GATT/BV-06"], "filtered"),
            ("connects twice", TransferFaults(connectAgain: true), ["CBT/GATT/BI-01"], "LE Create Connection 2 times"),
            ("RSSI gate turned round", TransferFaults(gateAsUpperBound: true), ["CBT/GATE/BV-01"], "never connected"),
            ("RSSI gate ignored on a swing", TransferFaults(ignoreRSSIGate: true), ["CBT/GATE/BV-05"], "below the -50 dBm gate"),
            ("RSSI not available accepted", TransferFaults(acceptUnavailableRSSI: true), ["CBT/GATE/BI-02"], "tried to connect"),
            ("failure without its reason", TransferFaults(vagueFailure: true), ["CBT/CLEAN/BI-01", "CBT/CLEAN/BI-02"],
             "without saying the connection ended"),
            ("no cleanup after an error", TransferFaults(skipCleanupOnError: true), ["CBT/CLEAN/BI-03", "CBT/CHUNK/BI-02"],
             "never turned notifications off"),
        ]

        /// Cases the reference gets not-applicable for under the default profile, with the reason in their code.
        static let notApplicable: Set = ["CBT/CHUNK/BI-01", "CBT/GATE/BV-06", "CBT/GATE/BV-03"]

        @Test("btvirt: chunks one byte short fail CBT/CHUNK/BV-01", .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenChunkSize() async throws { try await check(Self.variants[0]) }

        @Test("btvirt: chunks one byte too big (ATT_MTU - 2) fail CBT/CHUNK/BV-01 for their size", .requires(.btvirt, .preload),
              .timeLimit(.minutes(3)))
        func brokenChunkTooBig() async throws { try await check(Self.variants[6]) }

        @Test("btvirt: EOM omitted fails CBT/CHUNK/BV-02, CBT/FLOW/BV-01 and CBT/ROLE/BV-03", .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenEndOfMessage() async throws { try await check(Self.variants[1]) }

        @Test("btvirt: an ignored RSSI gate fails CBT/GATE/BI-01 and BI-02", .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenGateIgnored() async throws { try await check(Self.variants[2]) }

        @Test("btvirt: an ignored RSSI gate connects a peer walking in while it is still weak: CBT/GATE/BV-04 fails",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenGateWalkIn() async throws { try await check(Self.variants[16]) }

        @Test("btvirt: a gate refusing -50 dBm fails CBT/GATE/BV-02", .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenGateStrict() async throws { try await check(Self.variants[3]) }

        @Test("btvirt: a gate without the 0 dBm bound fails CBT/GATE/BI-03", .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenGateUnbounded() async throws { try await check(Self.variants[9]) }

        @Test("btvirt: no write-back, or one to the wrong handle, fails CBT/ROLE/BV-01 and BV-02; one before EOM fails BV-02",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenWriteBack() async throws {
            try await check(Self.variants[4])
            try await check(Self.variants[7])
            try await check(Self.variants[8])
        }

        @Test("btvirt: no cleanup fails CBT/CLEAN/BV-01", .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenCleanup() async throws { try await check(Self.variants[5]) }

        @Test("btvirt: a central dropping values that are not UTF-8 fails CBT/CHUNK/BV-09 under the keep reading",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenTextValues() async throws { try await check(Self.variants[10]) }

        @Test("btvirt: under the sample's reading (non_utf8_values: drop) the reference fails CBT/CHUNK/BV-09 and the dropping central passes",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func textValuesDropReading() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-text-drop")
            defer { folder.cleanUp() }
            let drop = { (text: String) in text.replacingOccurrences(of: "non_utf8_values: keep", with: "non_utf8_values: drop") }
            let reference = try await Self.run(["CBT/CHUNK/BV-09"], profile: drop, in: folder)
            #expect(reference.cases.map(\.verdict) == [.fail], "\(reference.cases.map(\.reasonWithFrames))")
            #expect(reference.cases.first?.reason.contains("kept the values") == true, "\(reference.cases.map(\.reason))")
            let dropping = try await Self.run(["CBT/CHUNK/BV-09"], faults: TransferFaults(dropNonUTF8Values: true), profile: drop, in: folder)
            #expect(dropping.cases.map(\.verdict) == [.pass], "\(dropping.cases.map(\.reasonWithFrames))")
        }

        @Test("btvirt: a secondary service, an extra Write property, an unreadable value or a foreign UUID fail CBT/GATT/BV-07",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenDatabase() async throws {
            for variant in Self.variants[11...14] { try await check(variant) }
        }

        /// The issue-12 finding: the harness copied the profile's UUIDs and gate into the roles,
        /// so a role with other built-in values could not fail. A profile with other numbers
        /// than the reference's built-in ones must now fail the reference.
        @Test("btvirt: the reference fails CBT/GATT/BV-07 under a profile naming another service UUID",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func profileUUIDsNotCopied() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-profile-uuid")
            defer { folder.cleanUp() }
            let report = try await Self.run(["CBT/GATT/BV-07"], profile: {
                $0.replacingOccurrences(of: "service_uuid: E20A39F4-73F5-4BC4-A12F-17D1AD07A961",
                                        with: "service_uuid: 0000FEED-0000-1000-8000-00805F9B34FB")
            }, in: folder)
            #expect(report.cases.map(\.verdict) == [.fail], "\(report.cases.map(\.reasonWithFrames))")
        }

        @Test("btvirt: the reference (gate -50 dBm) fails CBT/GATE/BV-02 under a profile whose gate is -60 dBm",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func profileGateNotCopied() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-profile-gate")
            defer { folder.cleanUp() }
            let report = try await Self.run(["CBT/GATE/BV-02"], profile: {
                $0.replacingOccurrences(of: "rssi_gate_dbm: -50", with: "rssi_gate_dbm: -60")
            }, in: folder)
            #expect(report.cases.map(\.verdict) == [.fail], "\(report.cases.map(\.reasonWithFrames))")
            #expect(report.cases.first?.reason.contains("-60 dBm") == true, "\(report.cases.map(\.reason))")
        }

        /// The variants named `names`, in turn.
        private func check(named names: String...) async throws {
            for name in names {
                let variant = try #require(Self.variants.first { $0.name == name }, "no variant \(name)")
                try await check(variant)
            }
        }

        private func check(_ variant: (name: String, faults: TransferFaults, failing: [String], because: String?)) async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-variant")
            defer { folder.cleanUp() }
            let report = try await Self.run(variant.failing, faults: variant.faults, in: folder)
            #expect(report.cases.count == variant.failing.count)
            for item in report.cases {
                #expect(item.verdict == .fail, "\(variant.name): \(item.id) \(item.verdict): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
                if let because = variant.because {
                    #expect(item.reason.contains(because), "\(variant.name): \(item.id): \(item.reason)\n\(item.log.joined(separator: "\n"))")
                }
                print("variant \(variant.name): \(item.id) \(item.verdict.rawValue): \(item.reasonWithFrames)")
            }
        }

        // issue 14: the CBT cases the runner lacked
        @Test("btvirt: a central past its limit, an empty chunk, EOM kept, short chunks dropped or chunks indicated fail their CHUNK case",
              .requires(.btvirt, .preload), .timeLimit(.minutes(4)))
        func brokenChunkRules() async throws {
            try await check(named: "payload limit ignored", "empty chunk before EOM", "EOM kept in the message",
                            "chunks shorter than EOM dropped", "chunks indicated")
        }

        @Test("btvirt: a sender letting a chunk that is exactly EOM go out whole fails CBT/CHUNK/BV-04",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenMarkerChunk() async throws {
            try await check(named: "a chunk that is EOM sent whole")
        }

        @Test("btvirt: a chunk lost fails CBT/CHUNK/BV-07, CBT/FLOW/BV-02, BV-03 and CBT/ROLE/BV-04 (past 512 KiB) and CBT/ROLE/BV-06",
              .requires(.btvirt, .preload), .timeLimit(.minutes(5)))
        func brokenMegabyte() async throws {
            try await check(named: "a chunk lost past 512 KiB", "a chunk lost at 1000 bytes")
        }

        @Test("btvirt: an unadvertised UUID, a missing property, a foreign UUID, advertising kept on, filtered duplicates or a second connection fail their GATT case",
              .requires(.btvirt, .preload), .timeLimit(.minutes(4)))
        func brokenGATTIssue14() async throws {
            try await check(named: "service UUID not advertised", "write without response missing",
                            "foreign service UUID for a central built like the sample", "advertising kept on",
                            "duplicate reports filtered", "connects twice")
        }

        @Test("btvirt: a gate turned round fails CBT/GATE/BV-01; an ignored gate fails BV-05 on a swing; accepting \"not available\" fails BI-02",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenGateIssue14() async throws {
            try await check(named: "RSSI gate turned round", "RSSI gate ignored on a swing", "RSSI not available accepted")
        }

        @Test("btvirt: a failure that does not name the disconnection fails CBT/CLEAN/BI-01 and BI-02; no cleanup after an error fails BI-03 and CBT/CHUNK/BI-02",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenCleanupOnError() async throws {
            try await check(named: "failure without its reason", "no cleanup after an error")
        }

        @Test("btvirt: under a profile letting \"not available\" pass the reference (whose gate refuses it) fails CBT/GATE/BV-03 and a central accepting it passes",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func unavailableAllowedReading() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-unavailable-allowed")
            defer { folder.cleanUp() }
            let allow = { (text: String) in text.replacingOccurrences(of: "rssi_allow_unavailable: false", with: "rssi_allow_unavailable: true") }
            let reference = try await Self.run(["CBT/GATE/BV-03"], profile: allow, in: folder)
            #expect(reference.cases.map(\.verdict) == [.fail], "\(reference.cases.map(\.reasonWithFrames))")
            let accepting = try await Self.run(["CBT/GATE/BV-03"], faults: TransferFaults(acceptUnavailableRSSI: true), profile: allow, in: folder)
            #expect(accepting.cases.map(\.verdict) == [.pass], "\(accepting.cases.map(\.reasonWithFrames))")
        }

        @Test("btvirt: a controller killed mid-case makes that case an error; the next case passes on fresh controllers",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
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
          .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
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
        for await _ in try await context.host(0).discover(services: [TransferProfile.sampleService]) {}
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
        let devices = try await context.host(1).discover(services: [TransferProfile.sampleService])
        for await _ in devices {}
        return .pass("the scan ended without the controller")
    }
}
