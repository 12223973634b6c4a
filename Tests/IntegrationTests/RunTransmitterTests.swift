import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// The transmitter (BFT) cases over real btvirt controllers: the reference in process through
/// its BLE link, and an implementation in another process (`blueproof dut`) through the
/// control protocol, right and deliberately broken.
extension Integration {
    @Suite("Transmitter cases on btvirt", .serialized)
    struct RunTransmitterTests {
        static let sample = ["BFT/OPT/BV-0*", "BFT/OPT/BI-2*", "BFT/SIZE/BV-02", "BFT/SIZE/BI-01", "BFT/DLV/BV-0[1-3]",
                             "BFT/DLV/BV-12", "BFT/SEC/BV-0[2345]", "BFT/SES/BV-08", "BFT/KEY/BV-05", "BFT/OND/BV-07",
                             // log events through the control protocol
                             "BFT/LOG/BV-0[36]",
                             // Three nodes in a line behind the radio proxy: A and C out of range of each other.
                             "BFT/DLV/BV-04", "BFT/DLV/BI-04", "BFT/DLV/BV-10",
                             // issue 14: Wi-Fi peer-to-peer over the TCP link; three testers in range; the relay's capture
                             "BFT/SIZE/BI-04", "BFT/SIZE/BV-09", "BFT/SIZE/BV-19", "BFT/DLV/BV-09", "BFT/DLV/BV-13"]

        static func run(_ filter: [String], defects: Set<Defect> = [], in folder: WorkFolder) async throws -> RunReport {
            let root = Integration.RunCaseTests.root
            let profile = try Profile.loadDefault(path: "\(root)/Conformance/profiles/bridgefy-ios.yaml")
            var configuration = RunConfiguration(
                profile: profile, catalogue: try Catalogue.load(path: "\(root)/Conformance/catalogue.yaml"),
                registry: CaseRegistry.standard(profile: profile), controller: .btvirt, filter: CaseFilter(filter),
                reportsRoot: folder.file("Reports"), capturesRoot: folder.file("Captures"),
                workDirectory: folder.file("work"), caseTimeout: .seconds(60))
            configuration.jobs = ProcessInfo.processInfo.activeProcessorCount  // as `blueproof run` does
            configuration.transmitterProvider = ReferenceTransmitterProvider(
                link: .ble, defects: defects, sessionRoot: URL(fileURLWithPath: folder.file("sessions")))
            return try await Runner(configuration).run()
        }

        @Test("btvirt: a sample of every BFT group, three-node mesh included, passes on the reference over its BLE link",
              .requires(.btvirt, .preload), .timeLimit(.minutes(5)))
        func referenceSample() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bft")
            defer { folder.cleanUp() }
            let report = try await Self.run(Self.sample, in: folder)
            #expect(report.cases.count >= 20)
            for item in report.cases {
                #expect(item.verdict == .pass, "\(item.id): \(item.reasonWithFrames)\n\(item.log.joined(separator: "\n"))")
                #expect(!item.captures.isEmpty && item.captures.allSatisfy { FileManager.default.fileExists(atPath: $0) })
            }
        }

        @Test("btvirt: with encryption skipped, the plaintext is found in the tester's capture, frames named",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func plaintextOnAir() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bft-plaintext")
            defer { folder.cleanUp() }
            let report = try await Self.run(["BFT/SEC/BV-04"], defects: [.encryptionSkipped], in: folder)
            let item = try #require(report.cases.first)
            #expect(item.verdict == .fail, "\(item.reasonWithFrames)")
            #expect(item.findings.first?.capture?.hasSuffix("node1.pcap") == true && item.findings.first?.frames.isEmpty == false)
        }

        @Test("btvirt: a relay that never forwards shows the mesh packet arrive and never leave in its capture, frames named",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func relayNeverForwardsOnAir() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bft-relay")
            defer { folder.cleanUp() }
            let report = try await Self.run(["BFT/DLV/BV-13"], defects: [.meshNeverRelays], in: folder)
            let item = try #require(report.cases.first)
            #expect(item.verdict == .fail, "\(item.reasonWithFrames)")
            #expect(item.findings.first?.capture?.hasSuffix("node0.pcap") == true && item.findings.first?.frames.isEmpty == false)
        }

        // issue 15: metadata
        @Test("btvirt: an encrypted mesh packet crosses the relay with its sender sealed; senderInClear shows the sender's id in the relay's capture, frames named",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func metadata() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bft-metadata")
            defer { folder.cleanUp() }
            let reference = try #require(try await Self.run(["BFT/ATK/BV-04"], in: folder).cases.first)
            #expect(reference.verdict == .pass, "\(reference.reasonWithFrames)")
            #expect(reference.findings.first?.frames.count ?? 0 >= 2, "the packet arriving at and leaving the relay: \(reference.findings)")
            let exposed = try #require(try await Self.run(["BFT/ATK/BV-04"], defects: [.senderInClear], in: folder).cases.first)
            #expect(exposed.verdict == .fail, "\(exposed.reasonWithFrames)")
            #expect(exposed.findings.contains { $0.message.hasPrefix("the sender's user id") && $0.capture?.hasSuffix("node1.pcap") == true && !$0.frames.isEmpty },
                    "\(exposed.findings)")
        }

        // issue 15: user tracking by a passive scanner
        @Test("btvirt: a scanner that never connects links the reference neither across a restart nor past 15 minutes; each variant it links by what it keeps, frames named; a device identifier a second user shows alike is inconclusive",
              .requires(.btvirt, .preload), .timeLimit(.minutes(6)))
        func tracking() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bft-tracking")
            defer { folder.cleanUp() }
            let reference = try await Self.run(["BFT/ATK/BV-0[23]"], in: folder)
            #expect(reference.cases.count == 2)
            for item in reference.cases { #expect(item.verdict == .pass, "\(item.id): \(item.reasonWithFrames)") }
            let linkedBy: [(Defect, String)] = [(.stableAdvertisedUserId, "Manufacturer Specific Data"), (.stableAdvertisingAddress, "address ")]
            for (defect, identifier) in linkedBy {
                let report = try await Self.run(["BFT/ATK/BV-0[23]"], defects: [defect], in: folder)
                #expect(report.cases.count == 2)
                for item in report.cases {
                    #expect(item.verdict == .fail, "\(defect) \(item.id): \(item.reasonWithFrames)")
                    let named = item.findings.map(\.message)
                    #expect(named.contains { $0.hasPrefix(identifier) }, "\(defect) \(item.id): \(named)")
                    #expect(item.findings.allSatisfy { $0.capture?.hasSuffix("node1.pcap") == true && !$0.frames.isEmpty })
                }
            }
            // An address that rotates beside a device identifier in the scan response, which a
            // second user of the device shows alike: never a pass, and the entry is named.
            let device = try await Self.run(["BFT/ATK/BV-0[23]"], defects: [.stableDeviceIdentifier], in: folder)
            #expect(device.cases.count == 2)
            for item in device.cases {
                #expect(item.verdict == .inconclusive, "stableDeviceIdentifier \(item.id): \(item.reasonWithFrames)")
                #expect(item.findings.map(\.message).contains { $0.hasPrefix("Manufacturer Specific Data (0xff) feff") }, "\(item.id): \(item.findings.map(\.message))")
            }
        }

        @Test("btvirt: with encryption refused, the encrypted cells fail and the plain ones still pass",
              .requires(.btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenOnAir() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let folder = try WorkFolder("run-bft-broken")
            defer { folder.cleanUp() }
            let report = try await Self.run(["BFT/OPT/BV-0[1-6]"], defects: [.encryptionRefused], in: folder)
            let verdicts = Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id.rawValue, $0.verdict) })
            #expect(verdicts["BFT/OPT/BV-01"] == .pass && verdicts["BFT/OPT/BV-03"] == .pass)
            #expect(verdicts["BFT/OPT/BV-04"] == .fail && verdicts["BFT/OPT/BV-06"] == .fail)
        }

        /// `blueproof dut` on its own btvirt, and `blueproof run` joining that btvirt.
        static func againstDUT(_ filter: [String], defects: [String] = [], extra: [String] = [], in folder: WorkFolder) async throws
            -> (status: Int32, stdout: String, stderr: String, report: RunReport?) {
            let cli = try RequiredComponent.require(.cli)[0]
            let dut = try LiveCLI(cli, ["dut", "--listen", "tcp:127.0.0.1:0", "--session", folder.file("dut-session"),
                                        "--work-dir", folder.file("dut-work")] + defects.flatMap { ["--defect", $0] } + extra)
            defer { dut.stop() }
            let serving = try #require(await dut.line(within: .seconds(60)) { $0.hasPrefix("serving the reference transmitter on ") },
                                       "dut did not start:\n\(dut.lines.joined(separator: "\n"))")
            let join = try #require(await dut.line(within: .seconds(10)) { $0.contains("--controller unix:") })
            let address = try #require(serving.split(separator: " ").first { $0.hasPrefix("tcp:") }).description
            let controller = try #require(join.split(separator: " ").last).description
            let arguments = ["run", "--controller", controller, "--dut", address,
                             "--output", folder.file("Reports"), "--captures", folder.file("Captures")]
                + filter.flatMap { ["--filter", $0] }
            let result = try await LiveCLI.run(cli, arguments)
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("Reports"))) ?? []
            let report = try runs.first.map { try ReportWriter.read(folder: folder.file("Reports/\($0)")) }
            return (result.status, result.stdout, result.stderr, report)
        }

        @Test("blueproof dut in another process: the transmitter cases run through the control protocol",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(5)))
        func dutProcess() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            let folder = try WorkFolder("run-dut")
            defer { folder.cleanUp() }
            let result = try await Self.againstDUT(Self.sample, in: folder)
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            let report = try #require(result.report)
            #expect(report.dut?.hasPrefix("tcp:127.0.0.1:") == true)
            // The three-node mesh cases need the radio proxy in front of the implementation's
            // controller, and the Wi-Fi cases a Wi-Fi peer no command gives it: not applicable;
            // every other case passes.
            let notForDUT: Set<String> = ["BFT/DLV/BV-04", "BFT/DLV/BI-04", "BFT/DLV/BV-10", "BFT/DLV/BV-09", "BFT/DLV/BV-13",
                                          "BFT/SIZE/BI-04", "BFT/SIZE/BV-09", "BFT/SIZE/BV-19"]
            for item in report.cases {
                let expected: Verdict = notForDUT.contains(item.id.rawValue) ? .notApplicable : .pass
                #expect(item.verdict == expected, "\(item.id): \(item.reasonWithFrames)")
            }
        }

        @Test("a broken implementation behind the control protocol fails the cases it breaks; exit 1",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func dutBroken() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            let folder = try WorkFolder("run-dut-broken")
            defer { folder.cleanUp() }
            let result = try await Self.againstDUT(["BFT/OPT/BV-0[45]", "BFT/OPT/BV-01"], defects: ["encryptionRefused"], in: folder)
            #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
            let verdicts = Dictionary(uniqueKeysWithValues: (result.report?.cases ?? []).map { ($0.id.rawValue, $0.verdict) })
            #expect(verdicts == ["BFT/OPT/BV-01": .pass, "BFT/OPT/BV-04": .fail, "BFT/OPT/BV-05": .fail])
        }

        /// docs/runner.md, "Verdict policy": an implementation that never answers (no event,
        /// so never a connection) fails the run: its cases are errors naming the precondition.
        @Test("an implementation that reports nothing makes its cases errors; exit 1, FAILED",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func dutMute() async throws {
            try RequiredComponent.require(.btvirt, .preload, .cli)
            let folder = try WorkFolder("run-dut-mute")
            defer { folder.cleanUp() }
            let result = try await Self.againstDUT(["BFT/SEC/BV-03"], defects: ["mute"], in: folder)
            #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("1 case: 0 pass, 0 fail, 0 inconclusive, 0 not-applicable, 1 error: FAILED"), "\(result.stdout)")
            for item in result.report?.cases ?? [] {
                #expect(item.verdict == .error && item.reason.contains("precondition connection not met"), "\(item.id): \(item.reason)")
            }
        }
    }
}
