import Foundation

/// The transmitter's API as the conformance runner drives it: implemented by the reference
/// `Transmitter` in this process, and by the control-protocol client for an implementation
/// under test in another process (docs/control-protocol.md). Mirrors
/// bridgefy-ios-sdk-readme.md, "Usage" to "Export and import keys".
public protocol TransmitterControl: Sendable {
    /// This transmitter's events. Called once per consumer; every consumer sees every event
    /// from the moment it subscribed.
    func events() async -> AsyncStream<TransmitterEvent>

    /// Starts in `mode` ("2. Start transmitter"); failures are thrown and reported as
    /// `.startFailed`. Creates the session on first start.
    func start(mode: ConnectionMode) async throws(TransmitterError)
    /// Stops; connections close and `.stopped` follows.
    func stop() async

    /// The user id of the session (nil before the first start or after `destroySession`).
    func localUser() async -> UserID?

    /// Validates synchronously and returns the packet id, or throws ("4. Send data").
    func send(dictionary: [String: TransmitterValue]?, data: Data?, to receiver: UserID?, options: SendingOptions) async throws(TransmitterError) -> PacketID
    /// The encoded size the packet would have ("Maximum package sizes and throughput").
    func transmissionSize(dictionary: [String: TransmitterValue]?, data: Data?) async throws(TransmitterError) -> Int

    /// On-demand mode: connects to a nearby user (at most 5 at once).
    func connect(to user: UserID) async throws(TransmitterError)
    /// On-demand mode: disconnects from a user.
    func disconnect(from user: UserID) async throws(TransmitterError)

    /// "Secure connections".
    func establishSecureConnection(with user: UserID) async throws(TransmitterError)
    func secureConnectionExpirationLimit() async -> Int
    func setSecureConnectionExpirationLimit(_ seconds: Int) async throws(TransmitterError)

    /// "Export and import keys".
    func localPublicKey() async throws(TransmitterError) -> String
    func savePublicKey(_ key: String, forUser user: UserID) async throws(TransmitterError)
    func existsKey(forUser user: UserID) async -> Bool

    /// "Session".
    func hasSession() async -> Bool
    func destroySession() async throws(TransmitterError)

    /// "Log levels": process-wide.
    func setLogLevel(_ level: TransmitterLogLevel) async

    /// "Save state": held mesh packets are written so they survive a restart.
    func saveState() async throws(TransmitterError)

    /// Whether this transmitter's own log lines reach ``events()`` as `log` events (the BFT/LOG
    /// cases judge them); an implementation behind control protocol 1 sends none.
    func reportsLogLines() async -> Bool

    /// The app's answer to the delegate's shouldConnectSecurelyWithUser ("Secure connections")
    /// for every connection made from now on. Returns whether the implementation took it: an
    /// implementation behind the control protocol cannot be given one (no command carries it).
    func answerSecureConnections(_ answer: Bool) async -> Bool
}

/// The four log levels, each including the ones below it ("Log levels"). Default `.error`.
public enum TransmitterLogLevel: Int, Sendable, Comparable, CaseIterable, Codable {
    case error = 0, info, debug, trace

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TransmitterControl {
    public func reportsLogLines() async -> Bool { true }
    public func answerSecureConnections(_ answer: Bool) async -> Bool { false }
}
