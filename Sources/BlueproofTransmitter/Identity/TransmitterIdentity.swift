import Crypto
import _CryptoExtras
import Foundation

/// A transmitter user: its identifier and its two private keys (RSA-2048 for encryption,
/// Ed25519 for signatures). Equality is by user id and public keys.
///
/// Source: bridgefy-ios-sdk-readme.md, "Session" (a key pair and a unique identifier per device).
public struct TransmitterIdentity: Sendable, Equatable {
    public let userID: UserID
    public let publicKeys: PublicKeyBundle
    /// RSA private key as DER. `_RSA.Encryption.PrivateKey` is not `Sendable`, so the key is
    /// kept as bytes and parsed for each use (`encryptionKey()`).
    let encryptionPrivateKeyDER: [UInt8]
    /// Ed25519 private key, raw 32 bytes (rebuilt on each signature).
    let signingKeyRaw: [UInt8]

    /// A new identity: fresh RSA-2048 and Ed25519 keys, and the user id the signing key derives
    /// (`UserID.derived(from:)`) unless `userID` names another (tests of impersonation only).
    /// RSA generation takes tens to hundreds of milliseconds.
    public static func generate(userID: UserID? = nil) throws(TransmitterError) -> TransmitterIdentity {
        let rsa: _RSA.Encryption.PrivateKey
        do {
            rsa = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        } catch {
            throw .sessionError.with(detail: "RSA key generation failed")
        }
        let signing = Curve25519.Signing.PrivateKey()
        return try TransmitterIdentity(
            userID: userID ?? .derived(from: Array(signing.publicKey.rawRepresentation)), encryptionKey: rsa,
            signingKeyRaw: Array(signing.rawRepresentation))
    }

    /// Rebuilds an identity from stored private keys: the RSA key as DER (PKCS#1 or PKCS#8) and
    /// the Ed25519 key as 32 raw bytes. `.invalidPublicKey` if either is unusable.
    public init(userID: UserID, encryptionPrivateKeyDER: [UInt8], signingPrivateKey: [UInt8]) throws(TransmitterError) {
        let rsa: _RSA.Encryption.PrivateKey
        do {
            rsa = try _RSA.Encryption.PrivateKey(derRepresentation: encryptionPrivateKeyDER)
        } catch {
            throw .invalidPublicKey.with(detail: "encryption private key is not RSA DER")
        }
        try self.init(userID: userID, encryptionKey: rsa, signingKeyRaw: signingPrivateKey)
    }

    private init(userID: UserID, encryptionKey: _RSA.Encryption.PrivateKey, signingKeyRaw: [UInt8]) throws(TransmitterError) {
        guard signingKeyRaw.count == 32,
              let signing = try? Curve25519.Signing.PrivateKey(rawRepresentation: signingKeyRaw) else {
            throw .invalidPublicKey.with(detail: "signing private key is not 32 Ed25519 bytes")
        }
        self.userID = userID
        self.encryptionPrivateKeyDER = Array(encryptionKey.derRepresentation)
        self.signingKeyRaw = signingKeyRaw
        self.publicKeys = try PublicKeyBundle(
            encryptionKeyDER: Array(encryptionKey.publicKey.derRepresentation),
            signingKey: Array(signing.publicKey.rawRepresentation))
    }

    /// The RSA private key, parsed from its DER (valid: it was checked at construction).
    func encryptionKey() throws -> _RSA.Encryption.PrivateKey {
        try _RSA.Encryption.PrivateKey(derRepresentation: encryptionPrivateKeyDER)
    }

    /// An Ed25519 signature (64 bytes) over `message`.
    public func sign(_ message: [UInt8]) throws(TransmitterError) -> [UInt8] {
        do {
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: signingKeyRaw)
            return Array(try key.signature(for: message))
        } catch {
            throw .sessionError.with(detail: "Ed25519 signing failed")
        }
    }

    public static func == (lhs: TransmitterIdentity, rhs: TransmitterIdentity) -> Bool {
        lhs.userID == rhs.userID && lhs.publicKeys == rhs.publicKeys
    }
}
