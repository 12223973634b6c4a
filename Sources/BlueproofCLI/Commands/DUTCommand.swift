import ArgumentParser
import BlueproofBluenetHost
import BlueproofConformance
import BlueproofControl
import BlueproofHost
import BlueproofSpark
import BlueproofTransmitter
import BlueproofTransmitterLinks
import BlueproofTransport
import Foundation

/// `blueproof dut`: the reference transmitter served over the control protocol, so
/// `blueproof run --dut` (or any other driver) can check it from another process.
struct DUTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dut",
        abstract: "Serve the reference transmitter over the control protocol (docs/control-protocol.md).",
        discussion: """
        The transmitter runs on one controller (--controller) through its BLE link; a driver \
        connects to --listen and sends JSON-line commands (start, send, connect, ...) and \
        receives its events. `blueproof run --dut ADDRESS` is such a driver: give both commands \
        controllers on the same air, e.g. a btvirt you started yourself:

          btvirt -l4 -s/tmp/bt &   (or any running btvirt/Rootcanal)
          blueproof dut --controller unix:/tmp/bt-server-le --listen tcp:127.0.0.1:7433
          blueproof run --controller unix:/tmp/bt-server-le --dut tcp:127.0.0.1:7433

        --defect turns on a deliberate fault of the reference (for showing a case fails). \
        --no-radio opens no controller: the transmitter meets no one, but its session and keys \
        are those of --session (BFT/KEY/BV-02 runs such a second process on the case's session).

        The same process serves the Spark data-connection commands (sparkStart, sparkLink, ...; \
        control protocol 5) with the reference Spark core on the same controller, so the SPK \
        cases run against it too; --spark-defect breaks that core as --defect breaks the \
        transmitter. It also serves the Bluenet library commands (bluenetStart, \
        bluenetStartScanning, bluenetConnect, ...; control protocol 6) with the reference \
        library, so the BLN cases run against it; a bluenet... --defect breaks that library:

          blueproof run --filter 'BLN/*' --dut-exec \
            'exec blueproof dut --controller "$BLUEPROOF_HCI" --listen "$BLUEPROOF_CONTROL"'
        """)

    @OptionGroup var options: ControllerOptions

    @Option(name: .long, help: ArgumentHelp("Where drivers connect: tcp:HOST:PORT (port 0 picks a free one) or unix:PATH.", valueName: "address"))
    var listen: String = "tcp:127.0.0.1:7433"

    @Option(name: .long, help: ArgumentHelp("The session folder (default: $XDG_DATA_HOME/blueproof/transmitter).", valueName: "path"))
    var session: String?

    @Option(name: .long, help: ArgumentHelp("A licence file (default: a day's licence from blueproof's test issuer).", valueName: "path"))
    var licence: String?

    @Option(name: .long, help: "The API key the licence is for.")
    var apiKey: String = ReferenceTransmitterProvider.apiKey

    @Option(name: .long, help: ArgumentHelp("A deliberate fault (repeatable): \(Defect.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "name"))
    var defect: [Defect] = []

    // issue 17: Spark data connections
    @Option(name: .long, help: ArgumentHelp("A deliberate fault of the Spark subject (repeatable).", valueName: "name"))
    var sparkDefect: [SparkDefects] = []

    @Flag(name: .long, help: "Open no controller: the transmitter runs on an empty simulated link and meets no one (another process on a session, for what persists across processes).")
    var noRadio = false

    // issue 14: BFT/SIZE with an Android peer
    @Option(name: .long, help: ArgumentHelp("Announce this platform (ios or android) and hold Wi-Fi peer-to-peer (TCP on loopback) beside BLE, used only between iOS nodes; its peers come with the wifiPeerToPeer command (docs/transmitter-links.md, \"Both links\").", valueName: "platform"))
    var platform: DevicePlatform?

    func validate() throws {
        do { _ = try listenSpec() } catch { throw ValidationError("--listen: \(error)") }
        if platform != nil, noRadio { throw ValidationError("--platform needs a radio: with --no-radio there is no BLE to announce it on") }  // issue 14
    }

    private func listenSpec() throws -> TransportSpec { try TransportSpec(listening: listen) }

    func run() async throws {
        options.logLevel.bootstrap()
        let teardown = Teardown()
        defer { withExtendedLifetime(teardown) {} }
        let licenceText: String
        if let licence {
            do { licenceText = try String(contentsOfFile: licence, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) } catch {
                Console.error("cannot read the licence \(licence): \(error.localizedDescription)")
                throw ExitCode(2)
            }
        } else {
            licenceText = try LicenceIssuer.blueproofTest().issue(apiKey: apiKey, holder: "blueproof dut", expires: Date().addingTimeInterval(86_400))
        }
        let controllers: ControllerSession?
        let link: any TransmitterLink
        var wifi: TCPControlWiFi?
        var spark: (any ControlSparkHost)?
        var bluenet: (any ControlBluenetHost)?
        if noRadio {
            controllers = nil
            link = SimulatedNetwork().link(kind: .ble)
        } else {
            let opened = try await ControllerSession.open(options, count: 1)
            let host = try await opened.startHosts()[0]
            if let hint = opened.joinHint { Console.progress(hint) }
            controllers = opened
            spark = ReferenceSparkHost(host: host, defects: SparkDefects(sparkDefect))  // issue 17
            bluenet = ReferenceBluenetHost(host: host, defects: DefectiveBluenet.relevant(Set(defect)))  // issue 18
            if let platform {  // issue 14: both links
                let tcp = TCPLink()
                wifi = TCPControlWiFi(link: tcp)
                link = DualLink(ble: BLELink(host: host, profile: Set(defect).bleProfile(platform: platform)), wifi: tcp,
                                platform: platform, faults: Set(defect).dualLinkFaults)
            } else {
                link = BLELink(host: host, profile: Set(defect).bleProfile())
            }
        }
        let directory = session.map { URL(fileURLWithPath: $0) } ?? SessionStore.defaultDirectory()
        let bluenetFaults = DefectiveBluenet.relevant(Set(defect))  // issue 18: the library's, not the transmitter's
        let faults = Set(defect).subtracting(bluenetFaults)
        let transmitter = Transmitter(configuration: TransmitterConfiguration(
            link: link, session: SessionStore(directory: directory),
            apiKey: apiKey, licence: licenceText, defects: faults.engine))
        let served: any TransmitterControl = faults.isEmpty ? transmitter : DefectiveTransmitter(wrapping: transmitter, defects: faults)
        let server: ControlServer
        do {
            server = try ControlServer(transmitter: served, listeningOn: try listenSpec(), wifi: wifi, spark: spark, bluenet: bluenet)
        } catch {
            Console.error("cannot listen on \(listen): \(error)")
            await controllers?.close()
            throw ExitCode(3)
        }
        teardown.beforeExit { await server.shutDown() }  // issue 17: a stopped dut leaves no Spark links or files, nor a Bluenet scan
        Console.line("serving the reference transmitter on \(server.address) (control protocol \(controlProtocolVersion)); session in \(directory.path)")
        if !faults.isEmpty { Console.line("deliberate faults: \(faults.map(\.rawValue).sorted().joined(separator: ", "))") }
        if !sparkDefect.isEmpty { Console.line("deliberate Spark faults: \(SparkDefects(sparkDefect).names.joined(separator: ", "))") }  // issue 17
        if !bluenetFaults.isEmpty { Console.line("deliberate Bluenet faults: \(bluenetFaults.map(\.rawValue).sorted().joined(separator: ", "))") }  // issue 18
        await server.run()
        await server.shutDown()
        await transmitter.stop()
        await controllers?.close()
    }
}

extension Defect: ExpressibleByArgument {}

// issue 17: Spark data connections
/// The reference Spark core as `blueproof dut`'s Spark subject: one per `sparkStart`, on the
/// command's LE host, its files in a folder of its own under the temporary folder.
private struct ReferenceSparkHost: ControlSparkHost {
    let host: LEHost
    let defects: SparkDefects

    func subject(_ application: SparkApplication, registration: UInt64,
                 forward: @escaping @Sendable (SparkEvent) -> Void) async throws -> any SparkControl {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blueproof-dut-spark-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        return try ReferenceSparkControl(host: host, application: application, registrationID: registration, folder: folder,
                                         defects: defects, forward: forward)
    }
}

// issue 18: Bluenet
/// The reference Bluenet library as `blueproof dut`'s: one per `bluenetStart`, on the command's
/// LE host, its deadlines on the continuous clock; the `bluenet…` defects of `--defect` break it.
private struct ReferenceBluenetHost: ControlBluenetHost {
    let host: LEHost
    let defects: Set<Defect>

    func library() async throws -> any BluenetControl {
        await ReferenceTransmitterProvider.bluenetLibrary(on: host, clock: ContinuousClock(), defects: defects)
    }
}
