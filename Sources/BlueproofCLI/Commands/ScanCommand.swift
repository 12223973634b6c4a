import ArgumentParser
import BlueproofHost
import BlueproofWire
import Foundation

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List the LE devices a controller hears.",
        discussion: """
        Scans (active by default, so scan responses count too) and prints a line each time a \
        device appears or what it advertises changes: address, RSSI ("n/a" when the controller \
        cannot measure it, as btvirt), name, service UUIDs, and iBeacon identity as \
        UUID.Maj:MAJOR.Min:MINOR.

        A backend started here (btvirt, rootcanal) is empty until someone joins it: the path to \
        join is printed first, for a Bumble peer or `blueproof advertise --controller ...`.

        Examples:
          blueproof scan --controller unix:/tmp/bt-server-le        a btvirt you started
          blueproof scan --service 180D --duration 5                 only heart-rate devices
          blueproof scan --controller rootcanal --json               JSON lines, one per update

        Exit status: 0 done, 2 usage, 3 no controller could start.
        """
    )

    @OptionGroup var options: ControllerOptions

    @Option(name: .long, help: "Seconds to scan; 0 scans until interrupted.")
    var duration: Double = 10

    @Option(name: .long, help: ArgumentHelp("Only devices advertising this service UUID (repeatable).", valueName: "uuid"))
    var service: [BluetoothUUID] = []

    @Flag(name: .long, help: "Passive scanning: no scan requests, so no scan responses.")
    var passive = false

    @Flag(name: .long, help: "Print JSON lines (one object per device update) instead of a table.")
    var json = false

    func validate() throws {
        guard duration >= 0, duration.isFinite else { throw ValidationError("--duration must be 0 or more seconds") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let session = try await ControllerSession.open(options, count: 1)
        let host = try await session.startHosts()[0]
        if let hint = session.joinHint { Console.progress(hint) }
        Console.progress("scanning as \(await host.address)" + (duration > 0 ? " for \(duration) s" : " until interrupted"))

        let devices: AsyncStream<LEDiscoveredDevice>
        do {
            devices = try await host.discover(services: Set(service), LEScanParameters(active: !passive))
        } catch {
            Console.error("\(error)")
            await session.close()
            throw ExitCode(3)
        }
        if !json { Console.line(DeviceLine.header) }
        let json = self.json
        let seen = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                var addresses = Set<String>()
                for await device in devices {
                    let line = DeviceLine(device)
                    addresses.insert(line.address)
                    if json { Console.jsonLine(line) } else { Console.line(line.text) }
                }
                return addresses.count
            }
            if duration > 0 {
                group.addTask {
                    try? await Task.sleep(for: .seconds(duration))
                    return nil
                }
            }
            var count = 0
            for await result in group {
                if let result { count = result }
                group.cancelAll()
            }
            return count
        }
        Console.progress("\(seen) device(s) seen")
        await session.close()
    }
}
