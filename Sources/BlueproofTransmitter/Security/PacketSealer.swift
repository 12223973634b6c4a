import Crypto
import _CryptoExtras
import Foundation

/// Encryption of packet content for one recipient (hybrid: RSA wraps an AES key).
///
/// The document says encrypted content uses RSA ("Secure connections") and that the receiver's
/// public key must be known first ("Export and import keys"). blueproof's layout (version 1):
///
///     0x01 · recipient fingerprint (8 = SHA-256(SPKI)[0..<8]) · wrapped-key length (UInt16 BE)
///     · RSA-OAEP-SHA256(AES key) · nonce (12) · AES-256-GCM ciphertext · tag (16)
///
/// The GCM additional data is the header (everything before the ciphertext) followed by the
/// caller's `associatedData`, so no header byte can change unnoticed.
public enum PacketSealer {
    /// The layout version `seal` writes and `open` reads.
    public static let formatVersion: UInt8 = 1
    static let fingerprintLength = 8
    static let nonceLength = 12
    static let tagLength = 16

    /// RSA-OAEP-SHA256 wraps a fresh random AES-256-GCM key per packet; the body is AES-GCM
    /// with `associatedData` authenticated. Never RSA block by block, never compression.
    public static func seal(_ plaintext: [UInt8], to recipient: PublicKeyBundle, associatedData: [UInt8]) throws(TransmitterError) -> [UInt8] {
        let rsa = try RSAPublicKeyDER.publicKey(recipient.encryptionKeyDER)
        let key = SymmetricKey(size: .bits256)
        let wrapped: [UInt8]
        do {
            wrapped = Array(try key.withUnsafeBytes { try rsa.encrypt(Array($0), padding: .PKCS1_OAEP_SHA256) })
        } catch {
            throw .invalidPublicKey.with(detail: "RSA-OAEP wrapping failed")
        }
        var header: [UInt8] = [formatVersion]
        header += recipient.encryptionKeyFingerprint
        header.append(UInt8(wrapped.count >> 8))
        header.append(UInt8(wrapped.count & 0xFF))
        header += wrapped
        let nonce = AES.GCM.Nonce()
        header += Array(nonce)
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: header + associatedData)
            return header + Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .invalidPublicKey.with(detail: "AES-GCM sealing failed")
        }
    }

    /// Opens a packet `seal` made for `identity`, checking `associatedData`.
    public static func open(_ sealed: [UInt8], with identity: TransmitterIdentity, associatedData: [UInt8]) throws(PacketSealerError) -> [UInt8] {
        try open(sealed, with: identity, associatedData: associatedData, checkingTag: true)
    }

    /// `checkingTag` false is the `tagUnchecked` variant's opening: the body is decrypted as
    /// GCM's counter mode does (counter 2 onwards after the 96-bit nonce), tag and associated
    /// data ignored, so an altered copy opens.
    static func open(_ sealed: [UInt8], with identity: TransmitterIdentity, associatedData: [UInt8], checkingTag: Bool) throws(PacketSealerError) -> [UInt8] {
        let fixed = 1 + fingerprintLength + 2
        guard sealed.count >= fixed else { throw .malformed.with(detail: "\(sealed.count) bytes, header needs \(fixed)") }
        guard sealed[0] == formatVersion else { throw .malformed.with(detail: "unsupported version \(sealed[0])") }
        let wrappedLength = Int(sealed[fixed - 2]) << 8 | Int(sealed[fixed - 1])
        let headerLength = fixed + wrappedLength + nonceLength
        guard sealed.count >= headerLength + tagLength else {
            throw .malformed.with(detail: "\(sealed.count) bytes, layout needs at least \(headerLength + tagLength)")
        }
        guard Array(sealed[1..<(1 + fingerprintLength)]) == identity.publicKeys.encryptionKeyFingerprint else {
            throw .wrongRecipient
        }
        let wrapped = sealed[fixed..<(fixed + wrappedLength)]
        let keyBytes: Data
        do {
            keyBytes = try identity.encryptionKey().decrypt(wrapped, padding: .PKCS1_OAEP_SHA256)
        } catch {
            throw .tampered.with(detail: "wrapped key does not decrypt")
        }
        guard keyBytes.count == 32 else { throw .tampered.with(detail: "wrapped key has \(keyBytes.count) bytes") }
        let header = Array(sealed[..<headerLength])
        if !checkingTag {
            do {
                let counter = try AES._CTR.Nonce(nonceBytes: Array(sealed[(headerLength - nonceLength)..<headerLength]) + [0, 0, 0, 2])
                return Array(try AES._CTR.decrypt(sealed[headerLength..<(sealed.count - tagLength)], using: SymmetricKey(data: keyBytes), nonce: counter))
            } catch {
                throw .tampered.with(detail: "body does not decrypt")
            }
        }
        do {
            let nonce = try AES.GCM.Nonce(data: sealed[(headerLength - nonceLength)..<headerLength])
            let box = try AES.GCM.SealedBox(
                nonce: nonce,
                ciphertext: sealed[headerLength..<(sealed.count - tagLength)],
                tag: sealed[(sealed.count - tagLength)...])
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: keyBytes), authenticating: header + associatedData))
        } catch {
            throw .tampered.with(detail: "body or associated data does not authenticate")
        }
    }

    /// Whether `signature` is `key`'s Ed25519 signature over `message`.
    public static func verify(signature: [UInt8], of message: [UInt8], by key: PublicKeyBundle) -> Bool {
        guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key.signingKey) else { return false }
        return publicKey.isValidSignature(signature, for: message)
    }
}
