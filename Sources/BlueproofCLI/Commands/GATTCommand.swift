import ArgumentParser
import BlueproofBackend
import BlueproofHost
import BlueproofWire
import Foundation

struct GATTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt",
        abstract: "Use a peer's GATT server: discover, read, write, subscribe.",
        discussion: """
        Connects to a peer as central and runs the actions asked for, in this order: --mtu, \
        --discover, every --read, every --write, every --write-command, then --subscribe. With \
        no action, --discover is the one. Disconnects at the end.

        The peer is named by address (--peer, public unless --peer-type random), or found by \
        scanning for an advertiser with --name and/or --service (the first connectable match \
        within --scan-timeout). The peer must share the air with --controller: give the \
        --controller that the advertiser printed (blueproof advertise, a Bumble peer). A btvirt \
        or rootcanal started here holds no other device, so gatt stops at once with exit 3.

        An attribute is a characteristic UUID (180D, 7B5C0004-2F3A-4E0B-9E43-52A0C6B1D000) or a \
        handle in hex (0x0012). A UUID is looked up by discovering the peer's characteristics; a \
        handle is used as it is. Values are hex. Reads are long reads (Read Blob while the value \
        fills the PDU), printed as hex and, when it all prints, as text.

        --subscribe writes the Client Characteristic Configuration of each characteristic \
        (notifications when it notifies, else indications; --indicate prefers indications), \
        prints each notification as it arrives, and unsubscribes after --count of them or \
        --duration seconds, whichever comes first (without either: until interrupted).

        --json prints one JSON object per line, each with "event": connected, mtu, services, \
        read, write, subscribed, notification, unsubscribed, error, disconnected.

        Examples:
          # the service tree of the advertiser "heart", on a btvirt you started
          blueproof gatt --controller unix:/tmp/bt-server-le --name heart
          # the device name, and the value at handle 0x0012
          blueproof gatt --controller unix:/tmp/bt-server-le --peer 00:AA:01:00:00:23 --read 2A00 --read 0x0012
          # a larger ATT_MTU, then a write with and one without response
          blueproof gatt --controller unix:/tmp/bt-server-le --service 180D --mtu 247 --write 2A39=01 \\
              --write-command 0x0015=c0ffee
          # ten heart-rate notifications as JSON lines
          blueproof gatt --controller tcp:127.0.0.1:6402 --name bp --subscribe 2A37 --count 10 --json
          # indications for 30 s from a peer with a random address
          blueproof gatt --controller hci0 --peer C0:11:22:33:44:55 --peer-type random \\
              --subscribe 0x000C --indicate --duration 30

        Exit status: 0 done, 1 a GATT operation failed (the ATT error and handle are printed), \
        2 usage, 3 environment (no controller, peer not found, no connection).
        """
    )

    @OptionGroup var options: ControllerOptions

    // MARK: The peer

    @Option(name: .long, help: ArgumentHelp("The peer's address, most significant octet first.", valueName: "address"))
    var peer: BDAddress?

    @Option(name: .long, help: "The peer's address type: public (default) or random.")
    var peerType: AddressTypeOption?

    @Option(name: .long, help: "Scan for an advertiser with this complete or shortened local name.")
    var name: String?

    @Option(name: .long, help: ArgumentHelp("Scan for an advertiser listing this service UUID (repeatable: any of them).",
                                            valueName: "uuid"))
    var service: [BluetoothUUID] = []

    @Option(name: .long, help: ArgumentHelp("Seconds to scan for --name / --service.", valueName: "seconds"))
    var scanTimeout: Double = 10

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the connection.", valueName: "seconds"))
    var connectTimeout: Double = 3

    // MARK: Actions

    @Flag(name: .long, help: "Print the services, characteristics and descriptors (the default action).")
    var discover = false

    @Option(name: .long, help: ArgumentHelp("Exchange MTU first, offering this ATT_MTU (23...517).", valueName: "n"))
    var mtu: Int?

    @Option(name: .long, help: ArgumentHelp("Read a characteristic's value (repeatable).", valueName: "uuid|0xhandle"),
            transform: GATTTarget.parse)
    var read: [GATTTarget] = []

    @Option(name: .long, help: ArgumentHelp("Write with response (repeatable).", valueName: "uuid|0xhandle=hex"),
            transform: GATTWrite.parse)
    var write: [GATTWrite] = []

    @Option(name: .long, help: ArgumentHelp("Write without response (repeatable).", valueName: "uuid|0xhandle=hex"),
            transform: GATTWrite.parse)
    var writeCommand: [GATTWrite] = []

    @Option(name: .long, help: ArgumentHelp("Subscribe and print notifications or indications (repeatable).",
                                            valueName: "uuid|0xhandle"),
            transform: GATTTarget.parse)
    var subscribe: [GATTTarget] = []

    @Flag(name: .long, help: "With --subscribe: ask for indications where a characteristic offers both.")
    var indicate = false

    @Option(name: .long, help: ArgumentHelp("With --subscribe: stop after this many notifications.", valueName: "n"))
    var count: Int?

    @Option(name: .long, help: ArgumentHelp("With --subscribe: stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Flag(name: .long, help: "Print JSON lines (one object per event) instead of text.")
    var json = false

    func validate() throws {
        if peer != nil, name != nil || !service.isEmpty {
            throw ValidationError("name the peer one way: --peer ADDRESS, or --name / --service to scan for it")
        }
        if peer == nil, name == nil, service.isEmpty {
            throw ValidationError("which peer? Give --peer ADDRESS, or --name NAME / --service UUID to scan for it")
        }
        if peerType != nil, peer == nil {
            throw ValidationError("--peer-type goes with --peer (a scanned peer's type is known)")
        }
        guard scanTimeout > 0, scanTimeout.isFinite else { throw ValidationError("--scan-timeout must be more than 0 seconds") }
        guard connectTimeout > 0, connectTimeout.isFinite else { throw ValidationError("--connect-timeout must be more than 0 seconds") }
        if let mtu, !(ATTBearer.defaultMTU...517).contains(mtu) {
            throw ValidationError("--mtu must lie in 23...517, not \(mtu)")
        }
        if subscribe.isEmpty, count != nil || duration != nil || indicate {
            throw ValidationError("--count, --duration and --indicate go with --subscribe")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be more than 0 seconds") }
    }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let spec = try options.backendSpec()
        if spec == .btvirt || spec == .rootcanal {
            // A backend started for this command holds no other device: no peer can answer,
            // so say so now rather than after the scan or connection timeout.
            Console.error("""
                gatt: a \(spec) started for this command holds no other device, so there is no peer to reach. \
                Start the peer first (`blueproof advertise --name N` prints the --controller others join with, \
                e.g. unix:/tmp/blueproof-…/bt-server-le) and give that --controller here
                """)
            throw ExitCode(3)
        }
        let session = try await ControllerSession.open(options, count: 1)
        let host = try await session.startHosts()[0]

        var status: Int32 = 0
        do {
            let (address, type) = try await findPeer(host)
            Console.progress("connecting to \(address) (\(type))")
            let connection: LEConnection
            do {
                connection = try await host.connect(to: address, type: type, timeout: .seconds(connectTimeout))
            } catch {
                throw GATTFailure(status: 3, "cannot connect to \(address) (\(type)): \(error)")
            }
            var connected = GATTEvent("connected")
            connected.peer = "\(connection.peerAddress)"
            connected.peerType = "\(connection.peerAddressType)"
            connected.connectionHandle = Int(connection.handle)
            connected.mtu = await host.attMTU(on: connection)
            emit(connected)

            var actions = GATTSession(command: self, host: host, connection: connection)
            do {
                try await actions.run()
            } catch let failure as GATTFailure {
                Console.error(failure.message)
                status = failure.status
            }
            var disconnected = GATTEvent("disconnected")
            if let reason = connection.endReason {
                (disconnected.initiator, disconnected.reason) = ("peer", "\(reason)")
            } else {
                try? await host.disconnect(connection)
                disconnected.initiator = "local"
            }
            emit(disconnected)
        } catch let failure as GATTFailure {
            Console.error(failure.message)
            status = failure.status
        }
        await session.close()
        if status != 0 { throw ExitCode(status) }
    }

    /// The address to connect to: `--peer`, or the first connectable advertiser that matches
    /// `--name` and `--service`.
    private func findPeer(_ host: LEHost) async throws -> (BDAddress, LEAddressType) {
        if let peer { return (peer, (peerType ?? .public).addressType) }
        let what = ([name.map { "named \"\($0)\"" }]
                    + [service.isEmpty ? nil : "with service \(service.map(\.description).joined(separator: " or "))"])
            .compactMap { $0 }.joined(separator: " ")
        Console.progress("scanning for an advertiser \(what) (at most \(scanTimeout) s)")
        let devices: AsyncStream<LEDiscoveredDevice>
        do {
            devices = try await host.discover(services: Set(service))
        } catch {
            throw GATTFailure(status: 3, "cannot scan: \(error)")
        }
        let name = self.name, limit = scanTimeout
        let found = await withTaskGroup(of: LEDiscoveredDevice?.self) { group in
            group.addTask {
                for await device in devices where device.connectable && (name == nil || device.name == name) {
                    return device
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(limit))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found else {
            throw GATTFailure(status: 3, "no connectable advertiser \(what) within \(limit) s")
        }
        Console.progress("found \(found.address) (\(found.addressType))" + (found.name.map { " \"\($0)\"" } ?? ""))
        return (found.address, found.addressType)
    }

    func emit(_ event: GATTEvent) {
        if json { Console.jsonLine(event) } else { Console.line(event.line) }
    }
}

/// Ends `blueproof gatt` with `status` after printing `message`.
struct GATTFailure: Error {
    var status: Int32
    var message: String

    init(status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }
}
