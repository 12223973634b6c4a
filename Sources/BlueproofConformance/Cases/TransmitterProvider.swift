import BlueproofBluenetHost
import BlueproofTransmitter
import Foundation

/// Where a transmitter case gets the transmitters it drives: the reference transmitter in
/// this process on the case's own controllers, or an implementation under test behind the
/// control protocol (`--dut`). The BFT cases (Cases/Transmitter/) drive what it gives.
public protocol TransmitterProvider: Sendable {
    /// A name for reports: `reference`, `tcp:10.0.0.2:7000`.
    var name: String { get }
    /// Whether this provider drives an implementation under test rather than the reference.
    var isDeviceUnderTest: Bool { get }
    /// `count` transmitters for one case, fresh (no session unless the case starts one).
    func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl]
    /// As ``transmitters(_:for:)``, with the nodes in `wifi` (iOS-like) also reaching each other
    /// over Wi-Fi peer-to-peer (the TCP link), for the Wi-Fi rows of the size table.
    func transmitters(_ count: Int, wifi: Set<Int>, for context: CaseContext) async throws -> [any TransmitterControl]
    /// Ends what ``transmitters(_:for:)`` made for the case.
    func release(for context: CaseContext) async
    /// How long a case waits for something to happen on the air (a connection, a delivery).
    var airTimeout: Duration { get }
    /// A failure of the harness itself during the last case (a control channel that broke),
    /// which makes the case an error whatever it concluded.
    func harnessFailure() async -> String?
    /// Another process of the implementation on the session store of node `index` (already
    /// made for the case), for what must persist across processes; ended in ``release(for:)``.
    /// Throws ``TransmitterUnavailable`` when the provider cannot start one.
    func otherProcess(sharingSessionOf index: Int, for context: CaseContext) async throws -> any TransmitterControl
    /// Damages the stored session of node `index` (already made and stopped for the case) in
    /// place, as a torn write or a bad disk would. Throws ``TransmitterUnavailable`` when the
    /// provider cannot reach the implementation's storage.
    func damageSession(of index: Int, for context: CaseContext) async throws
    /// Removes the app's own data of node `index` (already made and stopped for the case), as
    /// deleting the app does, leaving the device storage outside it. Throws
    /// ``TransmitterUnavailable`` when the provider cannot reach the implementation's storage.
    func removeAppData(of index: Int, for context: CaseContext) async throws
    /// Moves the clock node `index` reads for expiry forward by `seconds`. Throws
    /// ``TransmitterUnavailable`` when the implementation's clock cannot be reached.
    func advanceClock(of index: Int, by seconds: TimeInterval, for context: CaseContext) async throws
    /// Another instance of the subject's implementation in the subject's process, unstarted,
    /// for rules about every instance at once ("Log levels": process-wide). Throws
    /// ``TransmitterUnavailable`` when the provider cannot make one.
    func anotherInstance(for context: CaseContext) async throws -> any TransmitterControl
    /// How the implementation under test names itself (its control protocol `hello`), once a
    /// case reached it; nil for the reference.
    func implementationName() async -> String?
    /// What the subject prints, when the runner can see it (its own reference transmitters,
    /// with `blueproof run`'s console capture); nil otherwise.
    var console: TransmitterConsole? { get }
    // issue 15: passive observers and the hello
    /// Makes tester node `index` (a tester, not started since the case made it) an impostor: a
    /// new identity with keys of its own under `user`, another node's id (BFT/ATK hello cases).
    /// Throws ``TransmitterUnavailable`` when the provider cannot.
    func impersonate(_ user: UserID, onTester index: Int, for context: CaseContext) async throws
    // issue 14: BFT/SIZE with an Android peer
    /// As ``transmitters(_:for:)``, with each node in `platforms` holding both links (BLE and
    /// Wi-Fi peer-to-peer, a `DualLink`) and announcing its platform; every node reaches the
    /// others over both. Throws ``TransmitterUnavailable`` when the provider cannot.
    func transmitters(_ count: Int, platforms: [Int: DevicePlatform], for context: CaseContext) async throws -> [any TransmitterControl]
    /// What tester `index` (made with a platform) saw of `peer` (whether its Wi-Fi link reaches
    /// the peer, and the frames that crossed each link from it) once `condition` holds of it,
    /// checked now and at every change; nil when it does not within `timeout`.
    func carriage(atTester index: Int, of peer: UserID, within timeout: Duration,
                  where condition: @escaping @Sendable (DualLink.Carriage) -> Bool, for context: CaseContext) async throws -> DualLink.Carriage?
    // issue 18: Bluenet
    /// The Bluenet library of the implementation on node `node` (the BLN cases' subject), ended
    /// by the case. Throws ``TransmitterUnavailable`` when the provider cannot drive one.
    func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl
    // issue 17: Spark data connections
    /// The SPK cases' subject from this provider (an implementation under test), or nil for
    /// the reference Spark core.
    var sparkProvider: (any SparkProvider)? { get }
}

extension TransmitterProvider {
    public var airTimeout: Duration { .seconds(30) }
    public func harnessFailure() async -> String? { nil }
    public func implementationName() async -> String? { nil }
    public func transmitters(_ count: Int, wifi: Set<Int>, for context: CaseContext) async throws -> [any TransmitterControl] {
        guard wifi.isEmpty else {
            throw TransmitterUnavailable("\(name) cannot put the implementation on Wi-Fi peer-to-peer: the control protocol has no command giving it a Wi-Fi (TCP) peer")
        }
        return try await transmitters(count, for: context)
    }
    public var console: TransmitterConsole? { nil }
    public func anotherInstance(for context: CaseContext) async throws -> any TransmitterControl {
        throw TransmitterUnavailable("\(name) drives one transmitter per process through the control protocol: a second instance in its process is out of reach")
    }
    public func otherProcess(sharingSessionOf index: Int, for context: CaseContext) async throws -> any TransmitterControl {
        throw TransmitterUnavailable("\(name) cannot start another process of the implementation on the same session")
    }
    public func advanceClock(of index: Int, by seconds: TimeInterval, for context: CaseContext) async throws {
        throw TransmitterUnavailable("\(name) cannot move the implementation's clock: the control protocol has no command for it")
    }
    public func damageSession(of index: Int, for context: CaseContext) async throws {
        throw TransmitterUnavailable("\(name) cannot damage the implementation's stored session: the control protocol has no command for it")
    }
    public func removeAppData(of index: Int, for context: CaseContext) async throws {
        throw TransmitterUnavailable("\(name) cannot remove the implementation's own app data: the control protocol has no command for it")
    }

    // issue 15: passive observers and the hello
    public func impersonate(_ user: UserID, onTester index: Int, for context: CaseContext) async throws {
        throw TransmitterUnavailable("\(name) cannot give a tester another node's id")
    }

    // issue 14: BFT/SIZE with an Android peer
    public func transmitters(_ count: Int, platforms: [Int: DevicePlatform], for context: CaseContext) async throws -> [any TransmitterControl] {
        throw TransmitterUnavailable("\(name) cannot put the implementation on both BLE and Wi-Fi peer-to-peer: the control protocol has no command giving it a Wi-Fi (TCP) peer")
    }
    public func carriage(atTester index: Int, of peer: UserID, within timeout: Duration,
                         where condition: @escaping @Sendable (DualLink.Carriage) -> Bool, for context: CaseContext) async throws -> DualLink.Carriage? {
        throw TransmitterUnavailable("\(name) has no tester with both links")
    }

    // issue 17: Spark data connections
    /// Where the SPK cases get their subject when this provider has one of its own (an
    /// implementation under test); nil: the reference Spark core.
    public var sparkProvider: (any SparkProvider)? { nil }

    // issue 18: Bluenet
    public func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl {
        throw TransmitterUnavailable("\(name) cannot drive a Bluenet library")
    }
}

/// Why a case needing transmitters could not get them.
public struct TransmitterUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
