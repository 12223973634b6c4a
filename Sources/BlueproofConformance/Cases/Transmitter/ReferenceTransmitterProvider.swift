import BlueproofHost
import BlueproofRadio
import BlueproofTransmitter
import BlueproofTransmitterLinks
import Foundation
import Synchronization

/// The reference transmitter as the implementation of a BFT case: one `Transmitter` per node,
/// on the node's own LE host through `BLELink` (or, for fast tests, on a `SimulatedNetwork`
/// where every node is in range of every other), each with its own session directory (on the
/// simulated link only node 0's is on disk). Node 0 carries `defects` (a broken variant); the
/// testers never do.
public final class ReferenceTransmitterProvider: TransmitterProvider {
    public enum LinkChoice: Sendable {
        /// `BLELink` on the case's LE hosts (the radio proxy, if the case asked, gives range).
        case ble
        /// A `SimulatedNetwork`, node pairs in range as `range` says at time zero (every pair
        /// when nil): for fast tests of the cases themselves.
        case simulated(range: RadioModel?)
    }

    public let link: LinkChoice
    public let defects: Set<Defect>
    /// The subject's limits: the reference's built-in ones (`TransmitterLimits.documented`,
    /// the size table's 1 KB for mesh over BLE) unless a test builds the reference to the
    /// Mesh section's reading instead.
    public let subjectLimits: TransmitterLimits
    /// The `blueproof` executable, for a second process on a node's session (`blueproof dut
    /// --no-radio`, BFT/KEY/BV-02); nil: no second process.
    public let executable: URL?
    /// Where the reference transmitters' printed lines go (`TransmitterLog.use`), when the
    /// caller installed one; nil: the BFT/LOG cases judge the `log` events alone.
    public let console: TransmitterConsole?
    private let sessionRoot: URL
    private let made = Mutex<[ObjectIdentifier: [Transmitter]]>([:])
    /// Per case: the session directory of each node kept on disk, and the second processes.
    private let sessionDirectories = Mutex<[ObjectIdentifier: [Int: URL]]>([:])
    private let processes = Mutex<[ObjectIdentifier: [SessionProcess]]>([:])
    /// Per case: each node's clock.
    private let clocks = Mutex<[ObjectIdentifier: [Int: OffsetTimeSource]]>([:])
    // issue 15: passive observers and the hello
    /// Per case: each tester's session, for an impostor's identity (`impersonate`).
    let testerSessions = Mutex<[ObjectIdentifier: [Int: any TransmitterSessionBacking]]>([:])
    // issue 14: BFT/SIZE with an Android peer
    /// Per case: the nodes made with both links.
    let dualLinks = Mutex<[ObjectIdentifier: [Int: DualLink]]>([:])

    public init(link: LinkChoice = .ble, defects: Set<Defect> = [], subjectLimits: TransmitterLimits = .documented,
                sessionRoot: URL, executable: URL? = nil, console: TransmitterConsole? = nil) {
        self.console = console
        self.link = link
        self.defects = defects
        self.subjectLimits = subjectLimits
        self.sessionRoot = sessionRoot
        self.executable = executable
    }

    public var name: String { defects.isEmpty ? "reference" : "reference with defects \(defects.map(\.rawValue).sorted().joined(separator: ", "))" }
    public var isDeviceUnderTest: Bool { false }

    /// In process nothing is slow: a simulated delivery that has not happened in 15 s will not,
    /// even in a test run whose other tests hold both cores for seconds at a time (5 s was too
    /// short there once: BFT/DLV/BV-06).
    public var airTimeout: Duration {
        if case .simulated = link { return .seconds(15) }
        return .seconds(30)
    }

    public func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] {
        try await make(nodes: 0..<count, for: context)
    }

    public func transmitters(_ count: Int, wifi: Set<Int>, for context: CaseContext) async throws -> [any TransmitterControl] {
        try await make(nodes: 0..<count, wifi: wifi, for: context)
    }

    /// Transmitters for `nodes` (indexes into the case's hosts); node 0, when made, carries the
    /// defects. The DUT provider makes its testers with this, from node 1 on. The nodes in
    /// `wifi` run over Wi-Fi peer-to-peer instead: TCP links on loopback (simulated Wi-Fi links
    /// on the simulated network), so the size table's Wi-Fi limits apply between them.
    func make(nodes: Range<Int>, wifi: Set<Int> = [], platforms: [Int: DevicePlatform] = [:], wifiGroup: WiFiGroup = WiFiGroup(),
              for context: CaseContext) async throws -> [any TransmitterControl] {
        // The subject runs with its own built-in limits (as it ships); only the testers, the
        // harness's instruments, take the profile's numbers, so they never refuse what the
        // profile allows. A wrong built-in limit therefore fails the SIZE cases.
        var limits = subjectLimits
        if defects.contains(.sizeLimitsOffByOne) { limits.adjust(by: 1) }
        if defects.contains(.limitsTooStrict) { limits.adjust(by: -2) }
        if defects.contains(.wifiDictionaryLimited) { limits.dictionaryWiFi = limits.dictionaryBLERecommended }
        if defects.contains(.wifiBinaryLimited) { limits.binaryWiFi = limits.binaryBLE }
        let licence = try Self.licence()
        var range: RadioModel?
        if case .simulated(let model) = link { range = model }
        // Frames take air time (1 MB/s), so a receiver can leave while a large one crosses (BFT/DLV/BI-01).
        let network = SimulatedNetwork(airRate: Self.simulatedAirRate) { [range] a, b in range?.inRange(a, b, at: .zero) ?? true }
        let wifiNetwork = SimulatedNetwork { _, _ in true }  // issue 14: the simulated Wi-Fi of nodes with both links, all in range
        var transmitters: [Transmitter] = []
        var controls: [any TransmitterControl] = []
        for index in nodes {
            let broken = index == 0 ? defects : []
            let clock = OffsetTimeSource()
            clocks.withLock { $0[ObjectIdentifier(context), default: [:]][index] = clock }
            let linkForNode: any TransmitterLink
            switch link {
            case _ where platforms[index] != nil:  // issue 14: BFT/SIZE with an Android peer
                linkForNode = try dualLink(index, platforms: platforms, context: context, network: network, wifiNetwork: wifiNetwork,
                                           wifiGroup: wifiGroup, clock: clock)
            case .ble where wifi.contains(index):
                linkForNode = wifiGroup.link()
            case .simulated where wifi.contains(index):
                linkForNode = network.link(kind: .wifi)
            case .ble:
                guard index < context.nodes.count, let host = context.nodes[index] else {
                    throw TransmitterUnavailable("node \(index) has no controller of ours (the case opened \(context.nodes.count))")
                }
                linkForNode = BLELink(host: host, profile: broken.bleProfile(), timeSource: clock)
            case .simulated:
                linkForNode = network.link(kind: .ble)  // the network numbers links 0, 1, … as made
            }
            let session: any TransmitterSessionBacking
            // The session lives in device storage (node<N>), outside the app's own data
            // (node<N>-app, which removeAppData deletes): bridgefy-ios-sdk-readme.md, "Session".
            let appData = Self.appDataDirectory(sessionRoot, context, index)
            try? FileManager.default.removeItem(at: appData)
            try FileManager.default.createDirectory(at: appData, withIntermediateDirectories: true)
            let directory = index == 0 && defects.contains(.sessionInAppData)
                ? appData.appendingPathComponent("session")
                : sessionRoot.appendingPathComponent(context.folder).appendingPathComponent("node\(index)")
            if case .simulated = link, index != 0 {
                session = InMemorySession(identity: try Self.simulatedIdentities().make())
            } else {
                // On disk (node 0 always, so another process can share its session); simulated
                // nodes skip RSA key generation.
                try? FileManager.default.removeItem(at: directory)
                if case .simulated = link {
                    let identities = try Self.simulatedIdentities()
                    session = SessionStore(directory: directory) { () throws(TransmitterError) in try identities.make() }
                } else {
                    session = SessionStore(directory: directory)
                }
                sessionDirectories.withLock { $0[ObjectIdentifier(context), default: [:]][index] = directory }
            }
            // issue 15: passive observers and the hello
            if index != 0 { testerSessions.withLock { $0[ObjectIdentifier(context), default: [:]][index] = session } }
            var configuration = TransmitterConfiguration(
                link: linkForNode, session: session,
                apiKey: Self.apiKey, licence: licence, limits: index == 0 ? limits : try Self.testerLimits(context.profile),
                timeSource: clock, defects: broken.engine)
            if broken.contains(.onDemandCapTooLow) { configuration.maxOnDemandConnections -= 1 }
            let transmitter = Transmitter(configuration: configuration)
            transmitters.append(transmitter)
            controls.append(broken.isEmpty ? transmitter : DefectiveTransmitter(wrapping: transmitter, defects: broken, clock: clock))
        }
        made.withLock { $0[ObjectIdentifier(context), default: []] += transmitters }
        return controls
    }

    public func release(for context: CaseContext) async {
        let transmitters = made.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) } ?? []
        for transmitter in transmitters { await transmitter.stop() }
        let others = processes.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) } ?? []
        for other in others { await other.end() }
        sessionDirectories.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
        clocks.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
        // issue 15: passive observers and the hello
        testerSessions.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
        dualLinks.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }  // issue 14
    }

    /// `blueproof dut --no-radio` on node `index`'s session directory, with the node's defects
    /// (it is the same implementation, in another process).
    public func otherProcess(sharingSessionOf index: Int, for context: CaseContext) async throws -> any TransmitterControl {
        guard let executable else { throw TransmitterUnavailable("no blueproof executable was given for a second process") }
        guard let directory = sessionDirectories.withLock({ $0[ObjectIdentifier(context)]?[index] }) else {
            throw TransmitterUnavailable("node \(index) has no session on disk")
        }
        let other = try await SessionProcess.launch(executable, session: directory, defects: index == 0 ? defects : [], timeout: airTimeout)
        processes.withLock { $0[ObjectIdentifier(context), default: []].append(other) }
        return other.client
    }

    /// Moves node `index`'s clock (what it reads for expiry) forward.
    public func advanceClock(of index: Int, by seconds: TimeInterval, for context: CaseContext) async throws {
        guard let clock = clocks.withLock({ $0[ObjectIdentifier(context)]?[index] }) else {
            throw TransmitterUnavailable("node \(index) has no clock of ours")
        }
        clock.advance(by: seconds)
    }

    /// Overwrites every file of node `index`'s session directory with bytes no session file has.
    public func damageSession(of index: Int, for context: CaseContext) async throws {
        guard let directory = sessionDirectories.withLock({ $0[ObjectIdentifier(context)]?[index] }) else {
            throw TransmitterUnavailable("node \(index) has no session on disk")
        }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        for file in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            try Data("blueproof: damaged session \u{FFFD}".utf8).write(to: file)
        }
    }

    /// Deletes node `index`'s app data folder, as deleting the app does; device storage stays.
    public func removeAppData(of index: Int, for context: CaseContext) async throws {
        let appData = Self.appDataDirectory(sessionRoot, context, index)
        guard FileManager.default.fileExists(atPath: appData.path) else {
            throw TransmitterUnavailable("node \(index) has no app data folder of ours")
        }
        try FileManager.default.removeItem(at: appData)
    }

    /// Node `index`'s own app data, beside its device storage.
    static func appDataDirectory(_ root: URL, _ context: CaseContext, _ index: Int) -> URL {
        root.appendingPathComponent(context.folder).appendingPathComponent("node\(index)-app")
    }

    /// Identities for simulated nodes: unique user ids over one shared RSA key, made once
    /// (RSA generation costs about half a second in a debug build; see `SimulatedIdentities`).
    private static let identities = Mutex<SimulatedIdentities?>(nil)

    static func simulatedIdentities() throws -> SimulatedIdentities {
        try identities.withLock { cached throws in
            if let cached { return cached }
            let made = try SimulatedIdentities()
            cached = made
            return made
        }
    }

    /// Bytes per second of the simulated links.
    static let simulatedAirRate = 1_000_000

    /// The API key the conformance licence is issued for.
    public static let apiKey = "blueproof-conformance"

    /// A licence from blueproof's test issuer, valid for a day.
    static func licence() throws -> String {
        try LicenceIssuer.blueproofTest().issue(apiKey: apiKey, holder: "blueproof conformance runner", expires: Date().addingTimeInterval(86_400))
    }

    /// The limits a tester runs with: the profile's, with the mesh limit it applies.
    static func testerLimits(_ profile: Profile) throws -> TransmitterLimits {
        var limits = TransmitterLimits.documented
        limits.meshDictionaryBLESizeTable = try profile.int("bridgefy.limits.ble.mesh_dictionary_bytes")
        limits.meshDictionaryMeshSection = try profile.int("bridgefy.limits.mesh_dictionary_bytes")
        limits.meshDictionaryWiFi = try profile.int("bridgefy.limits.wifi.mesh_dictionary_bytes")
        limits.binaryBLE = try profile.int("bridgefy.limits.ble.binary_bytes")
        limits.meshLimitSource = try profile.string("bridgefy.limits.mesh_dictionary_ble_applied") == "mesh_section" ? .meshSection : .sizeTable
        return limits
    }

}

extension TransmitterLimits {
    /// Every finite limit moved by `delta` bytes: the limit variants of `Defect`.
    mutating func adjust(by delta: Int) {
        meshDictionaryBLESizeTable += delta
        meshDictionaryMeshSection += delta
        meshDictionaryWiFi += delta
        binaryBLE = binaryBLE.map { $0 + delta }
        binaryWiFi = binaryWiFi.map { $0 + delta }
        dictionaryBLE = dictionaryBLE.map { $0 + delta }
        dictionaryWiFi = dictionaryWiFi.map { $0 + delta }
    }
}
