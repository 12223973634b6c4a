import ArgumentParser
import BlueproofBluenet
import BlueproofBluenetHost
import BlueproofHost
import BlueproofWire

/// `blueproof bluenet scan`: the "advertisementData" topic, live.
struct BluenetScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Print advertisements as Bluenet decodes them (its advertisementData event).",
        discussion: """
        Scans actively (a Crownstone puts its state in the scan response) and prints a line per \
        device, then again whenever what it advertises changes: address (the handle), RSSI \
        ("n/a" when the controller cannot measure it, as btvirt), name, and the service data: a \
        Crownstone's fields decoded (id, state id, switch state 0-100, event bitmask, power in mW, \
        accumulated energy), any other device's as bytes. --json prints the library's JSON \
        object per advertisement instead, one a line.

        --crownstones keeps only Crownstones (scan response service data under C001, C002 or \
        C003); --service keeps devices naming that service UUID (in a list or as service data). \
        btvirt reports a device only when its advertising or this scan starts, not at each \
        interval, so there a scan prints each device once or twice (docs/bluenet.md).

        Two terminals on one btvirt:
          blueproof bluenet crownstone --id 7      (prints --controller unix:... for others)
          blueproof bluenet scan --crownstones --controller unix:/tmp/blueproof-.../bt-server-le

        Examples:
          blueproof bluenet scan --crownstones --timeout 5
          blueproof bluenet scan --service C001 --json --controller unix:/tmp/bt-server-le

        Exit status: 0 done, 2 usage, 3 no controller could start.
        """
    )

    @OptionGroup var options: ControllerOptions

    @Flag(name: .long, help: "Only Crownstones.")
    var crownstones = false

    @Option(name: .long, help: ArgumentHelp("Only devices naming this service UUID.", valueName: "uuid"))
    var service: BluetoothUUID?

    @Flag(name: .long, help: "Print the library's JSON object per advertisement, one a line.")
    var json = false

    @Option(name: .long, help: "Seconds to scan; 0 scans until interrupted.")
    var timeout: Double = 10

    /// Devices whose last line is remembered (to print changes only); past this, lines repeat.
    static let rememberedDevices = 4096

    func validate() throws {
        guard timeout >= 0, timeout.isFinite else { throw ValidationError("--timeout must be 0 or more seconds") }
        if crownstones, service != nil { throw ValidationError("--crownstones and --service exclude each other") }
    }

    var filter: BluenetScanFilter {
        if crownstones { return .crownstones }
        return service.map { .service($0) } ?? .all
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let (session, host) = try await ControllerSession.openOneHost(options)
        let bluenet = BluenetHost(host: host)
        await bluenet.hostStarted()
        Console.progress("scanning as \(await host.address)" + (timeout > 0 ? " for \(timeout) s" : " until interrupted"))
        do {
            try await bluenet.startScanning(filter)
        } catch {
            Console.error("\(error)")
            await session.close()
            throw ExitCode(3)
        }
        let (json, timeout) = (self.json, self.timeout)
        let seen = await runFor(seconds: timeout) {
            var last: [String: BluenetAdvertisement] = [:]
            for await advertisement in bluenet.advertisements {
                guard last[advertisement.handle] != advertisement else { continue }
                if last.count >= Self.rememberedDevices { last = [:] }
                last[advertisement.handle] = advertisement
                Console.line(json ? advertisement.stringify() : Self.text(advertisement))
            }
            return last.count
        }
        Console.progress("\(seen) device(s) seen")
        await session.close()
    }

    /// One line: handle, RSSI, name, then the service data.
    static func text(_ advertisement: BluenetAdvertisement) -> String {
        let rssi = advertisement.rssi == 127 ? "n/a" : "\(advertisement.rssi) dBm"
        var line = "\(advertisement.handle)  \(rssi)  \(advertisement.name.isEmpty ? "-" : advertisement.name)"
        switch advertisement.serviceData {
        case nil: break
        case let .crownstone(uuid, data):
            line += "  Crownstone \(uuid): id \(data.crownstoneId) state \(data.crownstoneStateId) switch \(data.switchState)"
                + " events 0x\(hex(data.eventBitmask)) power \(data.powerUsage) mW energy \(data.accumulatedEnergy)"
        case let .bytes(bytes):
            line += "  service data \(bytes)"
        }
        if let error = advertisement.serviceDataError { line += " (\(error))" }
        return line
    }
}
