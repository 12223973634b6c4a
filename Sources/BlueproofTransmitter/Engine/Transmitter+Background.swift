/// "Background mode" (bridgefy-ios-sdk-readme.md): off until `backgroundModeEnabled` is set;
/// enabling it needs the application to declare a Bluetooth background mode (`UIBackgroundModes`
/// holding `bluetooth-peripheral` or `bluetooth-central`), or it is an error; with it on, open
/// links survive the application moving to the background. Sans-I/O: the application's
/// declarations and its moves between foreground and background are calls.
public struct BackgroundState: Sendable {
    /// The application's `UIBackgroundModes`.
    var declaredModes: Set<String> = []
    var enabled = false
    var inBackground = false
    /// The mode to resume in the foreground, when moving to the background stopped the transmitter.
    var suspended: ConnectionMode?

    /// The Bluetooth background modes, one of which must be declared.
    public static let bluetoothModes: Set<String> = ["bluetooth-peripheral", "bluetooth-central"]
}

extension TransmitterError {
    /// Background mode enabled without a Bluetooth background mode declared ("Background mode":
    /// the framework raises an error). blueproof's own code, past the headers' 50000–50024.
    public static let backgroundModeUndeclared = TransmitterError(
        code: 50025, name: "backgroundModeUndeclared", summary: "background mode needs a Bluetooth background mode declared",
        origin: .document(section: "Background mode"))
}

extension Transmitter {
    public func declareBackgroundModes(_ modes: [String]) { background.declaredModes = Set(modes) }

    public func backgroundModeEnabled() -> Bool { background.enabled }

    public func setBackgroundModeEnabled(_ enabled: Bool) throws(TransmitterError) {
        if enabled, background.declaredModes.isDisjoint(with: BackgroundState.bluetoothModes) {
            throw TransmitterError.backgroundModeUndeclared.with(detail: "UIBackgroundModes holds \(background.declaredModes.sorted())")
        }
        background.enabled = enabled
    }

    /// Without background mode a running transmitter stops (its links close) until the foreground.
    public func appMovedToBackground() async {
        guard !background.inBackground else { return }
        background.inBackground = true
        guard !background.enabled, let mode else { return }
        background.suspended = mode
        await stop()
    }

    public func appMovedToForeground() async {
        background.inBackground = false
        guard let mode = background.suspended else { return }
        background.suspended = nil
        try? await start(mode: mode)
    }
}
