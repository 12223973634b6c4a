import BlueproofTestSupport
import Foundation
import Testing

/// `blueproof bluenet crownstone` and `blueproof bluenet scan` in two terminals (processes) on
/// one btvirt, as their help shows.
extension Integration {
    @Suite("blueproof bluenet")
    struct BluenetCLITests {
        @Test("a Crownstones-only scan in a second terminal prints the simulated Crownstone's fields, as text and as the library's JSON",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func twoTerminals() async throws {
            try RequiredComponent.require(.btvirt, .preload)
            let cli = try RequiredComponent.require(.cli)[0]
            let folder = try WorkFolder("bluenet-cli")
            defer { folder.cleanUp() }
            let crownstone = try LiveCLI(cli, ["bluenet", "crownstone", "--id", "7", "--switch-state", "100", "--work-dir", folder.file("work")])
            defer { crownstone.stop() }
            let join = await crownstone.line(within: .seconds(60)) { $0.contains("--controller unix:") }
            let controller = try #require(join?.split(separator: " ").last.map(String.init), "\(crownstone.lines)")
            #expect(await crownstone.line(within: .seconds(30)) { $0.hasPrefix("advertising as ") } != nil, "\(crownstone.lines)")

            let text = try run(cli, ["bluenet", "scan", "--crownstones", "--timeout", "3", "--controller", controller])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("crownstone  Crownstone C001: id 7 state 0 switch 100 events 0x00 power 0 mW energy 0"), "\(text.stdout)")
            let json = try run(cli, ["bluenet", "scan", "--service", "C001", "--json", "--timeout", "3", "--controller", controller])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.contains(#""serviceData":{"C001":{"accumulatedEnergy":0,"crownstoneId":"7","crownstoneStateId":"0""#),
                    "\(json.stdout)")
            let usage = try run(cli, ["bluenet", "scan", "--crownstones", "--service", "C001"])
            #expect(usage.status == 2, "\(usage.stderr)")
        }
    }
}
