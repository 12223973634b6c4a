import BlueproofBackend
import BlueproofConformance
import BlueproofTestSupport
import Foundation
import Testing

/// The commands a person uses around the suite, as a new user runs them (issue 19): advertise,
/// scan and gatt against each other on one btvirt, report merge of shards, run --list, and
/// the messages for a mistyped command or an empty backend.
extension Integration {
    @Suite("The everyday commands", .serialized)
    struct EverydayCLITests {
        static let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

        // MARK: advertise, scan, gatt on one btvirt

        @Test("advertise --name --ibeacon fits; scan shows each device once, name from the scan response, columns aligned; gatt reads what advertise serves",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func advertiseScanGatt() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("everyday-adv")
            defer { folder.cleanUp() }
            try await withBackend(.btvirt, in: folder.path) { backend in
                let controller = try sharedController(of: backend)
                // The beacon fills the advertising data (30 octets), so the name goes to the scan response.
                let beacon = try LiveCLI(cli, ["advertise", "--controller", controller, "--name", "bp-beacon-name",
                                               "--ibeacon", "\(Self.beacon):1:2", "--duration", "60"])
                defer { beacon.stop() }
                let heart = try LiveCLI(cli, ["advertise", "--controller", controller, "--name", "bp-heart",
                                              "--service", "180D", "--duration", "60"])
                defer { heart.stop() }
                let beaconLine = try #require(await beacon.line(within: .seconds(20)) { $0.hasPrefix("advertising as ") },
                                              "\(beacon.lines)")
                let heartLine = try #require(await heart.line(within: .seconds(20)) { $0.hasPrefix("advertising as ") },
                                             "\(heart.lines)")
                let beaconAddress = String(beaconLine.dropFirst("advertising as ".count).prefix(17))
                let heartAddress = String(heartLine.dropFirst("advertising as ".count).prefix(17))
                #expect(await heart.line(within: .seconds(5)) { $0.hasPrefix("serving GATT services 1800, 1801, 180D") } != nil,
                        "\(heart.lines)")

                // JSON: one object per device, the scan response merged in.
                let scan = try await LiveCLI.run(cli, ["scan", "--controller", controller, "--json", "--duration", "3"])
                #expect(scan.status == 0, "stderr: \(scan.stderr)")
                let lines = try jsonLines(scan.stdout)
                let beacons = lines.filter { $0["address"] as? String == beaconAddress }
                #expect(beacons.count == 1, "one line for the beacon: \(scan.stdout)")
                #expect(beacons.first?["name"] as? String == "bp-beacon-name", "\(scan.stdout)")
                #expect((beacons.first?["iBeacon"] as? [String: Any])?["id"] as? String == "\(Self.beacon).Maj:1.Min:2")
                #expect(lines.filter { $0["address"] as? String == heartAddress }.count == 1, "\(scan.stdout)")

                // The table: one row per device, every column under its heading.
                let table = try await LiveCLI.run(cli, ["scan", "--controller", controller, "--duration", "3"])
                #expect(table.status == 0, "stderr: \(table.stderr)")
                let rows = table.stdout.split(separator: "\n").map(String.init)
                let header = try #require(rows.first { $0.hasPrefix("ADDRESS") }, "\(table.stdout)")
                let beaconRows = rows.filter { $0.hasPrefix(beaconAddress) }
                #expect(beaconRows.count == 1, "\(table.stdout)")
                let row = try #require(beaconRows.first)
                for (heading, cell) in [("RSSI", "n/a"), ("NAME", "bp-beacon-name"), ("SERVICES", "iBeacon")] {
                    #expect(Self.column(of: heading, in: header) == Self.column(of: cell, in: row),
                            "\(heading) heads \(cell):\n\(header)\n\(row)")
                }

                // gatt against our own advertiser: GAP, GATT and the advertised service.
                let gatt = try await LiveCLI.run(cli, ["gatt", "--controller", controller, "--name", "bp-heart",
                                                              "--discover", "--read", "2A00", "--json"])
                #expect(gatt.status == 0, "stdout: \(gatt.stdout)\nstderr: \(gatt.stderr)")
                let events = try jsonLines(gatt.stdout)
                let read = events.first { $0["event"] as? String == "read" }
                #expect(read?["value"] as? String == "62702d6865617274", "the device name bp-heart: \(gatt.stdout)")
                for service in ["\"1800\"", "\"1801\"", "\"180D\""] {
                    #expect(gatt.stdout.contains(service), "\(service) served: \(gatt.stdout)")
                }
                // Handles in hex, as gatt prints them.
                #expect(await heart.line(within: .seconds(10)) { $0.hasPrefix("connected: ") && $0.contains("(handle 0x") } != nil,
                        "\(heart.lines)")
            }
        }

        /// The character offset of `text` in `line`.
        static func column(of text: String, in line: String) -> Int? {
            line.range(of: text).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }

        @Test("the help example of advertise --ibeacon runs: exit 0", .requires(.cli, .btvirt, .preload),
              .timeLimit(.minutes(3)))
        func iBeaconExample() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let result = try await LiveCLI.run(cli, [
                "advertise", "--ibeacon", "\(Self.beacon):1:2:-59", "--non-connectable", "--duration", "1"])
            #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
            #expect(result.stdout.contains("non-connectable: no GATT server"), "\(result.stdout)")
            let named = try await LiveCLI.run(cli, [
                "advertise", "--name", "X", "--ibeacon", "\(Self.beacon):1:2", "--duration", "1"])
            #expect(named.status == 0, "stdout: \(named.stdout)\nstderr: \(named.stderr)")
        }

        @Test("scan on a btvirt of its own says that no one else is there and how to join",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func scanEmptyBackend() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let result = try await LiveCLI.run(cli, ["scan", "--duration", "0.5"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("0 device(s) seen"), "\(result.stderr)")
            #expect(result.stderr.contains("has no other device") && result.stderr.contains("--controller unix:"),
                    "\(result.stderr)")
        }

        @Test("gatt on a backend of its own stops at once (exit 3) and says why", .requires(.cli))
        func gattWithoutPeer() async throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let start = ContinuousClock.now
            let result = try await LiveCLI.run(cli, ["gatt", "--name", "nobody"])
            #expect(ContinuousClock.now - start < .seconds(5), "long before the 10 s scan timeout")
            #expect(result.status == 3)
            #expect(result.stderr.contains("no other device") && result.stderr.contains("--controller"), "\(result.stderr)")
        }

        // MARK: usage

        @Test("a mistyped command names the nearest one: exit 2", .requires(.cli))
        func nearestCommand() async throws {
            let cli = try RequiredComponent.require(.cli)[0]
            for (arguments, nearest) in [(["rn"], "run"), (["report", "mrge"], "merge"), (["help", "advertize"], "advertise"),
                                         (["transfer", "centrl"], "central")] {
                let result = try await LiveCLI.run(cli, arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.stderr.contains("Did you mean '\(nearest)'?"), "\(arguments): \(result.stderr)")
            }
        }

        // MARK: report merge, run --list

        @Test("report merge takes the folders run --output wrote, lists cases in catalogue order, refuses a shard merged twice",
              .requires(.cli))
        func reportMerge() async throws {
            let cli = try RequiredComponent.require(.cli)[0]
            let folder = try WorkFolder("everyday-merge")
            defer { folder.cleanUp() }
            let root = try #require(ConformanceFiles.root())
            let catalogue = try Catalogue.load(path: "\(root)/\(ConformanceFiles.catalogue)")
            let entries = Array(catalogue.entries.prefix(4))
            // As `run --shard K/2 --output Reports/shard-K` leaves them: one run folder inside.
            for (shard, picked) in [(1, [entries[2], entries[0]]), (2, [entries[3], entries[1]])] {
                var report = RunReport(runID: "run-\(shard)", startedAt: Date(), profile: .init(name: "p", path: "p.yaml"),
                                       controller: "btvirt", shard: "\(shard)/2")
                report.cases = picked.map { CaseResult(entry: $0, outcome: .pass("ok"), duration: .milliseconds(10), captures: [], log: []) }
                report.endedAt = RunReport.timestamp(Date())
                try ReportWriter(folder: folder.file("shard-\(shard)/run-\(shard)")).write(report)
            }
            let merged = try await LiveCLI.run(cli, ["report", "merge", folder.file("shard-1"), folder.file("shard-2"),
                                                            "--output", folder.file("all")])
            #expect(merged.status == 0, "stdout: \(merged.stdout)\nstderr: \(merged.stderr)")
            let report = try ReportWriter.read(folder: folder.file("all"))
            #expect(report.cases.map(\.id) == entries.map(\.id), "catalogue order")

            let twice = try await LiveCLI.run(cli, ["report", "merge", folder.file("shard-1"), folder.file("shard-1/run-1"),
                                                           "--output", folder.file("twice")])
            #expect(twice.status == 2)
            #expect(twice.stderr.contains("is in both"), "\(twice.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("twice/report.json")))

            try FileManager.default.createDirectory(atPath: folder.file("empty/nothing"), withIntermediateDirectories: true)
            let empty = try await LiveCLI.run(cli, ["report", "merge", folder.file("empty"), "--output", folder.file("none")])
            #expect(empty.status == 2 && empty.stderr.contains("no report.json"), "\(empty.stderr)")
        }

        @Test("run --list --shard K/N ends with the count the run runs and names the cases it cannot run", .requires(.cli))
        func listCounts() async throws {
            let cli = try RequiredComponent.require(.cli)[0]
            var total = 0
            for shard in ["1/2", "2/2"] {
                let list = try await LiveCLI.run(cli, ["run", "--list", "--shard", shard])
                #expect(list.status == 0, "\(list.stderr)")
                let lines = list.stdout.split(separator: "\n").map(String.init)
                let rows = lines.dropLast()
                let runnable = rows.filter { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "runner" }
                let planned = rows.filter { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "-" }
                let footer = try #require(lines.last)
                #expect(footer.hasPrefix("\(runnable.count) case(s) to run"), "\(shard): \(footer)")
                for row in planned {
                    let id = String(row.split(separator: " ")[0])
                    #expect(footer.contains(id), "\(shard): the planned \(id) is named: \(footer)")
                }
                total += runnable.count
            }
            let all = try await LiveCLI.run(cli, ["run", "--list"])
            #expect(all.stdout.split(separator: "\n").last?.hasPrefix("\(total) case(s) to run") == true,
                    "the shards together run every case: \(all.stdout.split(separator: "\n").last ?? "")")
        }

        // MARK: run --dut

        @Test("run --dut on a controller the tester does not share stops at preflight in seconds (exit 3), with how to fix it",
              .requires(.cli, .btvirt, .preload), .timeLimit(.minutes(3)))
        func dutOnAnotherAir() async throws {
            let cli = try RequiredComponent.require(.cli, .btvirt, .preload)[0]
            let folder = try WorkFolder("everyday-dut")
            defer { folder.cleanUp() }
            // The implementation on a btvirt of its own; the tester on another.
            let dut = try LiveCLI(cli, ["dut", "--listen", "unix:\(folder.file("dut.sock"))", "--session", folder.file("session"),
                                        "--work-dir", folder.file("dut-work")])
            defer { dut.stop() }
            #expect(await dut.line(within: .seconds(30)) { $0.hasPrefix("serving the reference transmitter") } != nil,
                    "\(dut.lines)")
            try await withBackend(.btvirt, in: folder.path) { backend in
                let start = ContinuousClock.now
                let result = try await LiveCLI.run(cli, [
                    "run", "--dut", "unix:\(folder.file("dut.sock"))", "--controller", try sharedController(of: backend),
                    "--filter", "BFT/SES/*", "--output", folder.file("Reports"), "--captures", folder.file("Captures")])
                #expect(ContinuousClock.now - start < .seconds(30), "at preflight, not after every case's timeout")
                #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
                #expect(result.stderr.contains("do not share the air") && result.stderr.contains("--controller unix:PATH"),
                        "\(result.stderr)")
                #expect(!result.stdout.contains("BFT/SES/"), "no case ran: \(result.stdout)")
            }
            // A backend the runner starts per case can never hold it: said at once.
            let fresh = try await LiveCLI.run(cli, [
                "run", "--dut", "unix:\(folder.file("dut.sock"))", "--filter", "BFT/SES/*",
                "--output", folder.file("Reports"), "--captures", folder.file("Captures")])
            #expect(fresh.status == 3 && fresh.stderr.contains("starts a new btvirt for every case"), "\(fresh.stderr)")
        }
    }
}
