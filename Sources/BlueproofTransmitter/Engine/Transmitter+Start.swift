/// What a start takes besides its mode: the licence certificate an application holds under the offline key
/// (bridgefy-ios-sdk-readme.md, "Configuring Transmitter Framework without Internet"), checked
/// at every start ("2. Start transmitter"). The reference has no network: the certificate alone
/// decides, as for a device offline.
extension Transmitter {
    /// Replaces the configured certificate: "" for none, nil for the configured one again.
    public func setLicence(_ certificate: String?) { licenceOverride = certificate }

    /// The mode the SDK's `start()` without a mode runs: automatic.
    public func startInDefaultMode() async throws(TransmitterError) { try await start(mode: .automatic) }
}
