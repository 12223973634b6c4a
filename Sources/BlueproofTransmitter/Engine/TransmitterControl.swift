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
    /// The user id as the implementation writes it (bridgefy-chat-app-tutorial.md: a UUID string).
    func localUserText() async -> String?

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
    /// "Log levels" by raw value, as `BFLogLevel(rawValue:)` reads one (error 0 … trace 3):
    /// true when `raw` names a level, now in force; false when it names none and the level in
    /// force stays.
    func setLogLevel(raw: Int) async -> Bool
    /// "Dictionaries": sends `dictionary` with one more value, under `key`, of a type that has
    /// no JSON form (the document's image object). The send must be refused.
    func sendUnencodable(_ dictionary: [String: TransmitterValue], key: String, to receiver: UserID?,
                         options: SendingOptions) async throws(TransmitterError) -> PacketID
    /// "Configuring Transmitter Framework without Internet": the certificate the application
    /// holds under the offline key, checked at the next start; "" for none, nil for the
    /// implementation's own again.
    func setLicence(_ certificate: String?) async
    /// "2. Start transmitter": `start()` without a mode.
    func startInDefaultMode() async throws(TransmitterError)
    /// "Background mode": `backgroundModeEnabled`, read and set (setting it on without a
    /// Bluetooth background mode declared is an error).
    func backgroundModeEnabled() async -> Bool
    func setBackgroundModeEnabled(_ enabled: Bool) async throws(TransmitterError)
    /// The application around it: its declared `UIBackgroundModes`, its moves to the background
    /// and back.
    func declareBackgroundModes(_ modes: [String]) async
    func appMovedToBackground() async
    func appMovedToForeground() async
    /// Whether the harness's calls beyond the SDK's typed API reach the implementation: a raw
    /// log level, an unencodable value, a licence certificate, background mode and the
    /// application's declarations and moves (control protocol 3 added them;
    /// docs/control-protocol.md, "Versions").
    func takesHarnessCalls() async -> Bool
}

/// The four log levels, each including the ones below it ("Log levels"). Default `.error`.
public enum TransmitterLogLevel: Int, Sendable, Comparable, CaseIterable, Codable {
    case error = 0, info, debug, trace

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TransmitterControl {
    public func reportsLogLines() async -> Bool { true }
    public func answerSecureConnections(_ answer: Bool) async -> Bool { false }
    public func localUserText() async -> String? { await localUser()?.description }
    /// A transmitter that does not implement the untyped calls says so: cases needing them are
    /// then not applicable, never judged on these placeholders.
    public func takesHarnessCalls() async -> Bool { false }
    public func setLogLevel(raw: Int) async -> Bool { false }
    public func setLicence(_ certificate: String?) async {}
    public func startInDefaultMode() async throws(TransmitterError) { try await start(mode: .automatic) }
    public func backgroundModeEnabled() async -> Bool { false }
    public func setBackgroundModeEnabled(_ enabled: Bool) async throws(TransmitterError) {
        throw TransmitterError.backgroundModeUndeclared.with(detail: "this transmitter takes no harness calls")
    }
    public func declareBackgroundModes(_ modes: [String]) async {}
    public func appMovedToBackground() async {}
    public func appMovedToForeground() async {}
    public func sendUnencodable(_ dictionary: [String: TransmitterValue], key: String, to receiver: UserID?,
                                options: SendingOptions) async throws(TransmitterError) -> PacketID {
        throw TransmitterError.unsupportedDictionaryValue.with(detail: "\(key): this transmitter takes no untyped input")
    }
}
