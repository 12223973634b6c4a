import BlueproofTransmitter

/// Identities shared by the identity, sealer and session tests: RSA-2048 generation costs
/// tens to hundreds of milliseconds, so each is made once per test process.
enum IdentityFixtures {
    static let alice: TransmitterIdentity? = try? TransmitterIdentity.generate()
    static let bob: TransmitterIdentity? = try? TransmitterIdentity.generate()
}
