import Crypto
import _CryptoExtras

/// Identities for large simulations, made fast: every identity has its own user id and its own
/// Ed25519 signing key, but all share ONE RSA-2048 encryption key, generated once (RSA key
/// generation costs ~100 ms, too slow for thousands of nodes). Simulation only: any node can open
/// any other node's encrypted packets, which is fine for flooding and routing tests and
/// wrong anywhere else.
public struct SimulatedIdentities: Sendable {
    private let encryptionPrivateKeyDER: [UInt8]

    public init() throws(TransmitterError) {
        do {
            encryptionPrivateKeyDER = Array(try _RSA.Encryption.PrivateKey(keySize: .bits2048).derRepresentation)
        } catch {
            throw TransmitterError.sessionError.with(detail: "RSA key generation failed")
        }
    }

    /// A new identity (a fresh signing key, the shared encryption key) with the user id its
    /// signing key derives (`UserID.derived(from:)`), or `user` (tests of impersonation only).
    public func make(_ user: UserID? = nil) throws(TransmitterError) -> TransmitterIdentity {
        let signing = Curve25519.Signing.PrivateKey()
        return try TransmitterIdentity(
            userID: user ?? .derived(from: Array(signing.publicKey.rawRepresentation)),
            encryptionPrivateKeyDER: encryptionPrivateKeyDER, signingPrivateKey: Array(signing.rawRepresentation))
    }
}
