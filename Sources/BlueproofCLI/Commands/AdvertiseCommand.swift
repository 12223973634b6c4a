import ArgumentParser
import BlueproofHost
import BlueproofWire
import Foundation

struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Advertise as an LE peripheral or beacon.",
        discussion: """
        Advertises (legacy PDUs: at most 31 bytes of advertising data and 31 of scan response; \
        the name moves to the scan response when it does not fit) and prints each connection and \
        disconnection. After a central disconnects, advertising starts again.

        A connectable advertiser serves GATT: the GAP service 1800 (device name: --name, else \
        "blueproof"; appearance 0), the GATT service 1801, and each --service (empty: no \
        characteristics), so `blueproof gatt --name N --discover` or `--read 2A00` work on it.

        A backend started here (btvirt, rootcanal) is printed with the way to join it, so a \
        scanner in another terminal can find this advertiser.

        Examples:
          blueproof advertise --name demo --service 180D
          blueproof advertise --ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2:-59 --non-connectable
          blueproof advertise --controller unix:/tmp/bt-server-le --duration 30 --json

        Exit status: 0 done, 2 usage (an advertisement that does not fit), 3 no controller could start.
        """
    )

    @OptionGroup var options: ControllerOptions
    @OptionGroup var advertisement: AdvertisementOptions

    @Option(name: .long, help: "Seconds to advertise; 0 advertises until interrupted.")
    var duration: Double = 0

    @Flag(name: .long, help: "Print events as JSON lines.")
    var json = false

    func validate() throws {
        guard duration >= 0, duration.isFinite else { throw ValidationError("--duration must be 0 or more seconds") }
        _ = try advertisement.parameters()
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let parameters = try advertisement.parameters()
        let session = try await ControllerSession.open(options, count: 1)
        let host = try await session.startHosts()[0]
        if let hint = session.joinHint { Console.progress(hint) }
        let connections = await host.incomingConnections()
        do {
            if parameters.connectable {
                // A central that connects finds what was advertised: the GAP service (device
                // name, appearance) and the GATT service in front (Core Vol 3, Part G §7), then
                // each --service, with no characteristics of its own.
                try await host.serve(advertisement.service.map { GATTServiceDefinition(uuid: $0, characteristics: []) },
                                     deviceName: advertisement.name ?? "blueproof")
            }
            try await host.startAdvertising(parameters)
        } catch {
            Console.error("\(error)")
            await session.close()
            throw ExitCode(3)
        }
        let address = await host.address
        let served = parameters.connectable ? ["1800", "1801"] + advertisement.service.map(\.description) : []
        emit(AdvertiseEvent(event: "advertising", address: "\(address)", data: hex(parameters.data),
                            scanResponse: hex(parameters.scanResponse), services: served))

        let json = self.json
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await connection in connections {
                    Self.emit(AdvertiseEvent(event: "connected", peer: "\(connection.peerAddress)",
                                             handle: Int(connection.handle)), json: json)
                    let reason = await host.waitForDisconnection(connection)
                    Self.emit(AdvertiseEvent(event: "disconnected", peer: "\(connection.peerAddress)",
                                             reason: reason.map { "\($0)" }), json: json)
                    if parameters.connectable { try? await host.startAdvertising(parameters) }
                }
            }
            if duration > 0 {
                group.addTask { try? await Task.sleep(for: .seconds(duration)) }
            }
            await group.next()
            group.cancelAll()
        }
        try? await host.stopAdvertising()
        await session.close()
    }

    private func emit(_ event: AdvertiseEvent) { Self.emit(event, json: json) }

    private static func emit(_ event: AdvertiseEvent, json: Bool) {
        if json { Console.jsonLine(event) } else { Console.line(event.text) }
    }
}

/// One line of `blueproof advertise` output.
struct AdvertiseEvent: Encodable {
    var event: String
    var address: String?
    var data: String?
    var scanResponse: String?
    /// The GATT services a central finds (none when non-connectable).
    var services: [String]?
    var peer: String?
    var handle: Int?
    var reason: String?

    var text: String {
        switch event {
        case "advertising":
            "advertising as \(address ?? "?"): data \(data ?? "") scan response \(scanResponse ?? "")\n"
                + (services?.isEmpty == false ? "serving GATT services \(services?.joined(separator: ", ") ?? "") (GAP: device name, appearance)"
                                              : "non-connectable: no GATT server")
        // Handles in hex, as `gatt` prints them.
        case "connected": "connected: \(peer ?? "?") (handle 0x\(hex(UInt16(truncatingIfNeeded: handle ?? 0))))"
        default: "disconnected: \(peer ?? "?") (\(reason ?? "?"))"
        }
    }
}
