import Crypto
import _CryptoExtras
import Foundation

/// The public half of a transmitter identity: the RSA-2048 key others encrypt to and the
/// Ed25519 key that checks the owner's signatures.
///
/// `base64` is the form `localPublicKey` exports and `savePublicKey` imports. The document only
/// says "encoded in base64"; the layout inside is blueproof's (docs/transmitter.md,
/// "Identity, encryption, sessions, licence"):
///
///     "BK" (2 bytes) · version 0x01 · DER length (UInt16, big-endian) · SPKI DER · Ed25519 key (32)
///
/// Source: bridgefy-ios-sdk-readme.md, "Session", "Export and import keys", "Secure connections".
public struct PublicKeyBundle: Hashable, Sendable {
    /// RSA-2048 public key, SubjectPublicKeyInfo DER.
    public let encryptionKeyDER: [UInt8]
    /// Ed25519 public key, 32 raw bytes.
    public let signingKey: [UInt8]

    /// The format version `base64` writes and the only one it reads.
    public static let formatVersion: UInt8 = 1
    /// The RSA modulus size every bundle carries.
    public static let encryptionKeyBits = 2048
    static let magic: [UInt8] = [0x42, 0x4B]  // "BK"

    /// Checks that `encryptionKeyDER` is an RSA-2048 SubjectPublicKeyInfo and `signingKey` an
    /// Ed25519 public key; `.invalidPublicKey` otherwise.
    public init(encryptionKeyDER: [UInt8], signingKey: [UInt8]) throws(TransmitterError) {
        let rsa = try RSAPublicKeyDER.publicKey(encryptionKeyDER)
        guard rsa.keySizeInBits == Self.encryptionKeyBits else {
            throw .invalidPublicKey.with(detail: "encryption key has \(rsa.keySizeInBits) bits, not \(Self.encryptionKeyBits)")
        }
        guard Array(rsa.derRepresentation) == encryptionKeyDER else {
            throw .invalidPublicKey.with(detail: "encryption key is not in canonical DER")
        }
        guard signingKey.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey)) != nil else {
            throw .invalidPublicKey.with(detail: "signing key is not a 32-byte Ed25519 public key")
        }
        self.encryptionKeyDER = encryptionKeyDER
        self.signingKey = signingKey
    }

    /// The export form: the versioned layout above, standard base64 with padding.
    public var base64: String { Data(binary).base64EncodedString() }

    /// The versioned binary layout, before base64.
    public var binary: [UInt8] {
        var out = Self.magic
        out.append(Self.formatVersion)
        out.append(UInt8(encryptionKeyDER.count >> 8))
        out.append(UInt8(encryptionKeyDER.count & 0xFF))
        out += encryptionKeyDER
        out += signingKey
        return out
    }

    /// Reads the export form strictly: canonical base64 (no whitespace), the magic, version 1,
    /// exact lengths, valid keys. `.invalidPublicKey` with a detail otherwise.
    public init(base64: String) throws(TransmitterError) {
        guard let data = Data(base64Encoded: base64), data.base64EncodedString() == base64 else {
            throw .invalidPublicKey.with(detail: "not canonical base64")
        }
        let bytes = [UInt8](data)
        guard bytes.count >= 5 else { throw .invalidPublicKey.with(detail: "too short: \(bytes.count) bytes") }
        guard Array(bytes[0..<2]) == Self.magic else { throw .invalidPublicKey.with(detail: "not a blueproof key bundle") }
        guard bytes[2] == Self.formatVersion else {
            throw .invalidPublicKey.with(detail: "unsupported version \(bytes[2])")
        }
        let derLength = Int(bytes[3]) << 8 | Int(bytes[4])
        let expected = 5 + derLength + 32
        guard bytes.count == expected else {
            throw .invalidPublicKey.with(detail: "length \(bytes.count), layout says \(expected)")
        }
        try self.init(encryptionKeyDER: Array(bytes[5..<(5 + derLength)]), signingKey: Array(bytes[(5 + derLength)...]))
    }

    /// The first 8 bytes of SHA-256 over the encryption key: names the recipient inside a sealed
    /// packet so a packet for someone else is told apart from a damaged one.
    public var encryptionKeyFingerprint: [UInt8] { Array(SHA256.hash(data: encryptionKeyDER).prefix(8)) }
}
