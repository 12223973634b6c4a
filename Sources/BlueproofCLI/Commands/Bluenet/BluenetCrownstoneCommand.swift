import ArgumentParser
import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost

/// `blueproof bluenet crownstone`: a simulated Crownstone plug to scan for and switch.
struct BluenetCrownstoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crownstone",
        abstract: "Be a Crownstone plug: advertise its state, take switch commands over GATT.",
        discussion: """
        Advertises connectable with its name, and its state in the scan response as service \
        data under C001 (16 octets: id, state id, switch state 0-100, event bitmask, reserved, \
        power, energy; docs/bluenet.md). Serves the Crownstone service \
        24F00000-7D10-4805-BFC1-7663A01C3BFF with the control characteristic 24F00001-...: a \
        switch command written there (type 0, reserved, length 1, state 0-100) becomes the \
        switch state, with a new state id, and is printed; anything else is refused and \
        printed, and the state stays. After a central disconnects it advertises the new state.

        Two terminals on one btvirt:
          blueproof bluenet crownstone --id 7      (prints --controller unix:... for others)
          blueproof bluenet scan --crownstones --controller unix:/tmp/blueproof-.../bt-server-le

        Examples:
          blueproof bluenet crownstone --id 7 --switch-state 100 --duration 30
          blueproof bluenet crownstone --id 12 --name kitchen --json --controller unix:/tmp/bt-server-le

        Exit status: 0 done, 2 usage, 3 no controller could start.
        """
    )

    @OptionGroup var options: ControllerOptions

    @Option(name: .long, help: "The Crownstone id (0-65535).")
    var id: UInt16

    @Option(name: .long, help: "The switch state it starts with, 0 (off) to 100 (on).")
    var switchState: UInt8 = 0

    @Option(name: .long, help: "Its complete local name.")
    var name: String = "crownstone"

    @Option(name: .long, help: "Seconds to run; 0 runs until interrupted.")
    var duration: Double = 0

    @Flag(name: .long, help: "Print events as JSON lines.")
    var json = false

    func validate() throws {
        guard switchState <= 100 else { throw ValidationError("--switch-state must be 0 to 100") }
        guard duration >= 0, duration.isFinite else { throw ValidationError("--duration must be 0 or more seconds") }
        // Flags (3) and the name's structure (2 + name) fit a legacy PDU's 31 octets.
        guard !name.isEmpty, name.utf8.count <= 26 else { throw ValidationError("--name must be 1 to 26 octets") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let (session, host) = try await ControllerSession.openOneHost(options)
        let crownstone = SimulatedCrownstone(host: host, crownstoneId: id, switchState: switchState, name: name)
        do {
            try await crownstone.start()
        } catch {
            Console.error("\(error)")
            await session.close()
            throw ExitCode(3)
        }
        let json = self.json
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in crownstone.events {
                    let line = CrownstoneLine(event)
                    if json { Console.jsonLine(line) } else { Console.line(line.text) }
                }
            }
            if duration > 0 {
                group.addTask { try? await Task.sleep(for: .seconds(duration)) }
            }
            await group.next()
            group.cancelAll()
        }
        await crownstone.stop()
        await session.close()
    }
}

/// One line of `blueproof bluenet crownstone` output.
struct CrownstoneLine: Encodable {
    var event: String
    var address: String?
    var peer: String?
    var switchState: UInt8?
    var reason: String?

    init(_ event: SimulatedCrownstone.Event) {
        switch event {
        case let .advertising(address): self.event = "advertising"; self.address = "\(address)"
        case let .connected(peer): self.event = "connected"; self.peer = "\(peer)"
        case let .disconnected(peer): self.event = "disconnected"; self.peer = "\(peer)"
        case let .switched(state): self.event = "switched"; switchState = state
        case let .refused(error): self.event = "refused"; reason = "\(error)"
        }
    }

    var text: String {
        switch event {
        case "advertising": "advertising as \(address ?? "?"), serving the Crownstone control characteristic"
        case "connected": "connected: \(peer ?? "?")"
        case "disconnected": "disconnected: \(peer ?? "?")"
        case "switched": "switch state \(switchState ?? 0)"
        default: "refused a write: \(reason ?? "?")"
        }
    }
}
