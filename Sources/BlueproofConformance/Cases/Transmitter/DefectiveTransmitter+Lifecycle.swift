import BlueproofTransmitter

/// The faults of issue 14's BFT/LIFE variants (and CHAT/APP/BV-06's, BFT/CON/BV-04's): the wrong
/// mode at start, a stop that keeps the links, a restart under a new identity, a saveState that
/// saves nothing, a certificate not read the way the licence rules say, background mode wrong
/// by default, unchecked or not kept, presence on the air before start, a user id not a UUID.
extension DefectiveTransmitter {
    /// The mode the transmitter underneath starts in when `mode` was asked for.
    nonisolated func startedMode(_ mode: ConnectionMode) -> ConnectionMode {
        mode == .onDemand && defects.contains(.onDemandStartsAutomatic) ? .automatic : mode
    }

    /// ``Defect/defaultModeOnDemand``: start without a mode runs on-demand.
    public func startInDefaultMode() async throws(TransmitterError) {
        try await start(mode: defects.contains(.defaultModeOnDemand) ? .onDemand : .automatic)
    }

    /// ``Defect/licenceIgnored``: a certificate given is not used; ``Defect/startsWithoutLicence``:
    /// "none" is not used; ``Defect/offlineLicenceIgnored``: a certificate given is replaced by none.
    public func setLicence(_ certificate: String?) async {
        switch certificate {
        case ""? where defects.contains(.startsWithoutLicence): return
        case let given? where !given.isEmpty && defects.contains(.licenceIgnored): return
        case let given? where !given.isEmpty && defects.contains(.offlineLicenceIgnored): await inner.setLicence("")
        default: await inner.setLicence(certificate)
        }
    }
}

extension DefectiveTransmitter {
    /// ``Defect/backgroundModeOnByDefault``: reads on whatever was set.
    public func backgroundModeEnabled() async -> Bool {
        defects.contains(.backgroundModeOnByDefault) ? true : await inner.backgroundModeEnabled()
    }

    /// ``Defect/backgroundModeUnchecked``: enabled as if a Bluetooth background mode were declared.
    public func setBackgroundModeEnabled(_ enabled: Bool) async throws(TransmitterError) {
        if defects.contains(.backgroundModeUnchecked) { await inner.declareBackgroundModes(Array(BackgroundState.bluetoothModes)) }
        do { try await inner.setBackgroundModeEnabled(enabled) } catch { throw misreported(error) }
    }

    public func declareBackgroundModes(_ modes: [String]) async { await inner.declareBackgroundModes(modes) }

    /// ``Defect/backgroundModeNotKept``: the links close in the background, background mode or not.
    public func appMovedToBackground() async {
        if defects.contains(.backgroundModeNotKept) { try? await inner.setBackgroundModeEnabled(false) }
        await inner.appMovedToBackground()
    }

    public func appMovedToForeground() async { await inner.appMovedToForeground() }
}

extension DefectiveTransmitter {
    /// ``Defect/presentBeforeStart``: the transmitter underneath runs on-demand (advertising and
    /// scanning, connecting to no one) from the first subscription until the first start, a
    /// stop or a destroyed session before it included.
    func startUnaskedIfBroken() async {
        guard defects.contains(.presentBeforeStart), starts == 0 else { return }
        startedUnasked = true
        try? await inner.start(mode: .onDemand)
    }

    /// ``Defect/userIDNotUUID``: the id written as a name, not a UUID.
    public func localUserText() async -> String? {
        guard let user = await inner.localUser() else { return nil }
        return defects.contains(.userIDNotUUID) ? "user-" + user.shortName : user.description
    }
}
