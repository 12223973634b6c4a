import ArgumentParser
import BlueproofBackend
import BlueproofHost
import BlueproofWire
import Foundation

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List the LE devices a controller hears.",
        discussion: """
        Scans (active by default, so scan responses count too) and prints one line per device, \
        its advertising data and scan response merged (a name in the scan response is on the \
        device's line), then a line again only when what it advertises changes: address, RSSI \
        ("n/a" when the controller cannot measure it, as btvirt), name, service UUIDs, and \
        iBeacon identity as UUID.Maj:MAJOR.Min:MINOR.

        A backend started here (btvirt, rootcanal) is empty until someone joins it: the path to \
        join is printed first, for a Bumble peer or `blueproof advertise --controller ...`, and \
        a scan that saw no one says so again at the end.

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

        let reports: AsyncStream<LEAdvertisement>
        do {
            reports = try await host.scan(LEScanParameters(active: !passive))
        } catch {
            Console.error("\(error)")
            await session.close()
            throw ExitCode(3)
        }
        if !json { Console.line(DeviceLine.header) }
        let json = self.json
        let filter = Set(service)
        let passive = self.passive
        let seen = await runFor(seconds: duration) {
            // The advertising data and the scan response of one device are one row.
            var list = LEDeviceList(services: filter)
            var rows = ScanRows(passive: passive)
            for await report in reports {
                _ = list.add(report)
                guard let device = list.devices[report.address], list.matches(device),
                      let row = rows.take(device, after: report.eventType) else { continue }
                Self.print(row, json: json)
            }
            for device in rows.flush() { Self.print(device, json: json) }
            return rows.count
        }
        Console.progress("\(seen) device(s) seen")
        if seen == 0, let started = session.backend as? ProcessBackend {
            // A backend started here holds no one else: say so, and how to fill it or leave it.
            Console.progress("""
                the \(session.backend.name) started for this scan has no other device on it: while scanning, \
                start an advertiser with --controller \(started.endpoint) (blueproof advertise, or a Bumble peer), \
                or scan a backend others already use with --controller unix:PATH or tcp:HOST:PORT
                """)
        }
        await session.close()
    }

    private static func print(_ device: LEDiscoveredDevice, json: Bool) {
        let line = DeviceLine(device)
        if json { Console.jsonLine(line) } else { Console.line(line.text) }
    }
}
