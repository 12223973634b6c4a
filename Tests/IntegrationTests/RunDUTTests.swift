import BlueproofCapture
import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// `blueproof run --dut-exec` as a third party uses it: the runner starts the program per case
/// on the judged role's node and judges what it did. The programs here are shell scripts
/// around blueproof's own CLI roles (another process, another host stack instance, reached only
/// through BLUEPROOF_HCI); the Bumble implementations are in DUTExamplesTests.
extension Integration {
    @Suite("blueproof run --dut-exec", .serialized)
    struct RunDUTTests {
        /// A DUT script: `body` is the shell text after the hello line, `$B` the blueproof CLI.
        static func script(_ folder: WorkFolder, _ name: String, cli: String, _ body: String) throws -> String {
            let path = folder.file("\(name).sh")
            try "#!/bin/sh\nB='\(cli)'\necho \"blueproof-dut: \(name) 1\"\n\(body)\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
            return path
        }

        /// The transfer roles of blueproof's CLI; `centralOptions` are added to the central.
        /// `transfer peripheral` serves one central and exits 1 when it leaves without taking the
        /// payload (the GATT cases read the database and go): docs/dut.md has a peripheral serve
        /// until the runner ends it, so the script stays until then, whatever the CLI's end
        /// (exiting first would race the runner's SIGTERM and make the case an error).
        static func roles(_ folder: WorkFolder, cli: String, centralOptions: String = "") throws -> String {
            try script(folder, "roles\(centralOptions.isEmpty ? "" : "-broken")", cli: cli, """
            case "$BLUEPROOF_ROLE" in
              peripheral) "$B" transfer peripheral --file "$BLUEPROOF_PAYLOAD" --controller "$BLUEPROOF_HCI"
                echo "transfer peripheral ended with status $?; staying until the runner ends this launch"
                exec sleep infinity ;;
              central) exec "$B" transfer central \(centralOptions) --controller "$BLUEPROOF_HCI" --output "$BLUEPROOF_OUTPUT/received.bin" ;;
              *) exit 77 ;;
            esac
            """)
        }

        /// The start of a Python implementation that plays `role` (exiting 77 for any other) and
        /// serves the control protocol `version` on `BLUEPROOF_CONTROL` as `yes-man`: one client,
        /// `stream` its lines, `out(value)` writes one.
        static func pythonControlServer(role: String, version: Int) -> String {
            """
            import json, os, socket, sys
            if os.environ.get("BLUEPROOF_ROLE") != "\(role)": sys.exit(77)
            server = socket.socket(socket.AF_UNIX)
            server.bind(os.environ["BLUEPROOF_CONTROL"].split(":", 1)[1])
            server.listen(1)
            stream = server.accept()[0].makefile("rwb")
            def out(value):
                stream.write((json.dumps(value) + "\\n").encode())
                stream.flush()
            out({"event": "hello", "protocol": \(version), "implementation": "yes-man"})

            """
        }

        static func runDUT(_ cli: String, _ folder: WorkFolder, _ arguments: [String]) async throws -> (status: Int32, stdout: String, report: RunReport?) {
            // A folder of its own per run, so the report read back is this run's.
            let output = folder.file("Reports-\(UUID().uuidString.prefix(8))")
            let result = try await LiveCLI.run(cli, ["run", "--output", output, "--captures", folder.file("Captures")] + arguments,
                                               within: .seconds(1200))
            let reports = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
            let report = try reports.first.map { try ReportWriter.read(folder: "\(output)/\($0)") }
            return (result.status, result.stdout + result.stderr, report)
        }

        @Test("every CBT case judges another process in the role the case names: all pass; the DUT's node capture holds its own HCI Reset; the report names it",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(4)))
        func transferRoles() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("dut-roles")
            defer { folder.cleanUp() }
            let dut = try Self.roles(folder, cli: cli)
            let result = try await Self.runDUT(cli, folder, ["--filter", "CBT/*", "--dut-exec", dut])
            #expect(result.status == 0, "\(result.stdout)")
            let report = try #require(result.report)
            let expected = try Self.transferVerdicts(judging: [0, 1])
            #expect(Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id.rawValue, $0.verdict) }) == expected,
                    "\(Self.unexpected(report, expected))")
            #expect(report.implementation == "roles 1")
            #expect(report.dut?.hasPrefix("exec: ") == true)
            // The peripheral case's node 0 and the central case's node 1 are the DUT's, with a launch each.
            for (id, node, role) in [("CBT/CHUNK/BV-02", 0, "peripheral"), ("CBT/ROLE/BV-02", 1, "central")] {
                let item = try #require(report.cases.first { $0.id.rawValue == id })
                #expect(item.log.contains { $0.contains("dut: launch 1 as \(role)") }, "\(id): \(item.log)")
                let capture = try CaptureReader.read(path: item.captures[node]).records
                #expect(capture.first?.direction == .sent && capture.first?.packet.payload.prefix(2) == [0x03, 0x0C],
                        "\(id): node \(node) starts with the DUT's HCI Reset")
            }
        }

        /// The cases whose verdict is not `expected`'s, each with its reason and its log's last
        /// lines (the DUT's output is there; the run's folder is removed with the test's).
        static func unexpected(_ report: RunReport, _ expected: [String: Verdict]) -> String {
            report.cases.filter { expected[$0.id.rawValue] != $0.verdict }.map { item in
                "\(item.id): \(item.verdict.rawValue) (expected \(expected[item.id.rawValue]?.rawValue ?? "none")): \(item.reason)\n"
                    + item.log.suffix(60).joined(separator: "\n")
            }.joined(separator: "\n\n")
        }

        /// What each CBT case gives an implementation under test on `nodes` that plays its roles
        /// right: pass where the case has a place for it there, not-applicable elsewhere (and
        /// where the case is not-applicable on the reference too). CBT/ROLE/BV-03 needs both
        /// roles of it.
        static func transferVerdicts(judging nodes: Set<Int>) throws -> [String: Verdict] {
            let profile = try Profile.loadDefault(path: "\(RunCaseTests.root)/Conformance/profiles/bridgefy-ios.yaml")
            return Dictionary(uniqueKeysWithValues: CaseRegistry.transfer(profile: profile).cases.map { item in
                let places: Set<Int>? = item.id == "CBT/ROLE/BV-03" ? [0, 1] : item.needs.dutNode.map { [$0] }
                let judged = places.map(nodes.isSuperset(of:)) == true && !RunCaseTests.notApplicable.contains(item.id.rawValue)
                return (item.id.rawValue, judged ? Verdict.pass : .notApplicable)
            })
        }

        @Test("a central under test that connects below the gate fails CBT/GATE/BI-01, BV-04 (the walk-in) and BV-05 (the swing), and only them",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func brokenGate() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("dut-gate")
            defer { folder.cleanUp() }
            let dut = try Self.roles(folder, cli: cli, centralOptions: "--min-rssi=-60")
            let result = try await Self.runDUT(cli, folder, ["--filter", "CBT/GATE/*", "--dut-exec", dut])
            #expect(result.status == 1, "\(result.stdout)")
            let verdicts = Dictionary(uniqueKeysWithValues: (result.report?.cases ?? []).map { ($0.id.rawValue, $0.verdict) })
            #expect(verdicts == ["CBT/GATE/BI-01": .fail, "CBT/GATE/BI-02": .pass, "CBT/GATE/BI-03": .pass, "CBT/GATE/BV-02": .pass,
                                 "CBT/GATE/BV-04": .fail,
                                 // issue 14
                                 "CBT/GATE/BV-01": .pass, "CBT/GATE/BV-03": .notApplicable, "CBT/GATE/BV-05": .fail,
                                 "CBT/GATE/BV-06": .notApplicable],
                    "\(result.stdout)")
        }

        @Test("status 77 is not-applicable; another exit mid-case is an error naming it; a DUT that never comes up fails precondition start",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func lifecycle() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("dut-life")
            defer { folder.cleanUp() }
            let unsupported = try Self.script(folder, "peripheral-only", cli: cli, "exit 77")
            let one = try await Self.runDUT(cli, folder, ["--filter", "CBT/ROLE/BV-02", "--dut-exec", unsupported])
            #expect(one.status == 4, "\(one.stdout)")
            #expect(one.report?.cases.first?.verdict == .notApplicable)
            #expect(one.report?.cases.first?.reason.contains("does not play the central role") == true)

            let crashing = try Self.script(folder, "crash", cli: cli, "echo 'Traceback: boom' >&2; exit 3")
            let two = try await Self.runDUT(cli, folder, ["--filter", "CBT/ROLE/BV-02", "--dut-exec", crashing])
            #expect(two.status == 1, "\(two.stdout)")
            #expect(two.report?.cases.first?.verdict == .error)
            #expect(two.report?.cases.first?.reason.contains("exited with status 3") == true, "\(two.stdout)")
            #expect(two.report?.cases.first?.log.contains { $0.contains("Traceback: boom") } == true)

            let silent = try Self.script(folder, "silent", cli: cli, "exec sleep 600")
            let three = try await Self.runDUT(cli, folder, ["--filter", "CBT/CHUNK/BV-02", "--dut-exec", silent, "--dut-start-timeout", "2"])
            #expect(three.status == 1, "\(three.stdout)")
            #expect(three.report?.cases.first?.verdict == .error)
            #expect(three.report?.cases.first?.reason.contains("precondition start not met") == true, "\(three.stdout)")
        }

        @Test("the reference transmitter as a DUT over the control protocol: a three-node case applies and passes",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func transmitter() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("dut-tx")
            defer { folder.cleanUp() }
            let dut = try Self.script(folder, "transmitter", cli: cli, """
            [ "$BLUEPROOF_ROLE" = transmitter ] || exit 77
            exec "$B" dut --controller "$BLUEPROOF_HCI" --listen "$BLUEPROOF_CONTROL"
            """)
            let result = try await Self.runDUT(cli, folder, ["--filter", "BFT/DLV/BV-04", "--filter", "BFT/LOG/BV-03", "--dut-exec", dut])
            #expect(result.status == 0, "\(result.stdout)")
            let cases = result.report?.cases ?? []
            #expect(cases.count == 2 && cases.allSatisfy { $0.verdict == .pass }, "\(result.stdout)")
            #expect(cases.allSatisfy { $0.log.contains { $0.contains("dut: launch 1 as transmitter") } })
        }

        // issue 14: BFT/SIZE with an Android peer
        @Test("the reference with both links as a DUT (dut --platform ios, wifiPeerToPeer): BFT/SIZE/BV-03 and BV-14 pass; each broken variant fails its case; without --platform they are not-applicable",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func androidPeer() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("dut-android")
            defer { folder.cleanUp() }
            let expected: [(options: String, verdicts: [String: Verdict])] = [
                ("--platform ios", ["BFT/SIZE/BV-03": .pass, "BFT/SIZE/BV-14": .pass]),
                ("--platform ios --defect wifiToAndroidPeer", ["BFT/SIZE/BV-14": .fail]),
                ("--platform ios --defect wifiLimitsToAndroidPeer", ["BFT/SIZE/BV-03": .fail, "BFT/SIZE/BV-14": .pass]),
                ("", ["BFT/SIZE/BV-03": .notApplicable, "BFT/SIZE/BV-14": .notApplicable]),
            ]
            for (index, run) in expected.enumerated() {
                let dut = try Self.script(folder, "both-links-\(index)", cli: cli, """
                [ "$BLUEPROOF_ROLE" = transmitter ] || exit 77
                exec "$B" dut --controller "$BLUEPROOF_HCI" --listen "$BLUEPROOF_CONTROL" \(run.options)
                """)
                let result = try await Self.runDUT(cli, folder, ["--filter", "BFT/SIZE/BV-03", "--filter", "BFT/SIZE/BV-14", "--dut-exec", dut])
                let verdicts = Dictionary((result.report?.cases ?? []).map { ($0.id.rawValue, $0.verdict) }, uniquingKeysWith: { a, _ in a })
                for (id, verdict) in run.verdicts {
                    #expect(verdicts[id] == verdict, "dut \(run.options): \(id): \(result.stdout)")
                }
            }
        }

        @Test("a central on the air (--dut-address any --dut-role central): ROLE/BV-01, BV-02 and CLEAN/BV-01 judged on our peripheral's side, ROLE/BV-03 not-applicable; a missing payload for a peripheral is a usage error",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func airCentral() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("dut-air")
            defer { folder.cleanUp() }
            let usage = try run(cli, ["run", "--list", "--dut-address", "any", "--dut-role", "peripheral"])
            #expect(usage.status == 2 && usage.stderr.contains("--dut-payload"), "\(usage.stderr)")
            try await withBackend(.btvirt, in: folder.path) { backend in
                let socket = try #require(backend.facts.first { $0.name == "socket" }?.value)
                // The device: another process, a central on the same btvirt, once per case.
                let device = try LiveCLI("/bin/sh", ["-c", "for i in 1 2 3; do '\(cli)' transfer central --controller unix:\(socket) "
                                                     + "--allow-unavailable-rssi --timeout 40; done"])
                defer { device.stop() }
                let result = try await Self.runDUT(cli, folder, ["--controller", "unix:\(socket)", "--dut-address", "any", "--dut-role", "central",
                                                           "--filter", "CBT/ROLE/*", "--filter", "CBT/CLEAN/*"])
                let verdicts = Dictionary(uniqueKeysWithValues: (result.report?.cases ?? []).map { ($0.id.rawValue, $0.verdict) })
                #expect(verdicts == ["CBT/ROLE/BV-01": .pass, "CBT/ROLE/BV-02": .pass, "CBT/ROLE/BV-03": .notApplicable,
                                     "CBT/CLEAN/BV-01": .pass,
                                     // issue 14: none of these can judge a device on the air from our side alone
                                     "CBT/ROLE/BV-04": .notApplicable, "CBT/ROLE/BV-05": .notApplicable, "CBT/ROLE/BV-06": .notApplicable,
                                     "CBT/CLEAN/BI-01": .notApplicable, "CBT/CLEAN/BI-02": .notApplicable,
                                     "CBT/CLEAN/BI-03": .notApplicable], "\(result.stdout)")
                #expect(result.status == 0, "\(result.stdout)")
            }
        }
    }
}
