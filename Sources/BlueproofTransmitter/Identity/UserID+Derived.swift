import Crypto
import Foundation

/// User ids bound to identity keys (issue 15; docs/security.md, "Impersonation by data frame").
///
/// The SDK gives every device "a unique identifier" with its key pair (bridgefy-ios-sdk-readme.md,
/// "Session") and says nothing about how the two relate. The published attacks impersonate any
/// user because nothing does relate them (breaking-bridgefy-2021, "Impersonation"). The
/// reference derives the id from the Ed25519 signing key, so whoever claims an id must hold its
/// key: a receiver checks `sender == UserID.derived(from: carried key)` on every data frame and
/// every key exchange, with no key on record needed.
extension UserID {
    /// Domain separation for the hash, so the id is never the hash of the bare key.
    static let derivationLabel = Array("blueproof user id v1".utf8)

    /// The user id of the holder of Ed25519 public key `signingKey`: the first 16 bytes of
    /// SHA-256(`"blueproof user id v1"` ‖ key), made an RFC 9562 version-8 UUID (version nibble
    /// 8, variant bits 10), so it reads as an ordinary UUID (docs/transmitter-wire.md).
    public static func derived(from signingKey: [UInt8]) -> UserID {
        let digest = Array(SHA256.hash(data: derivationLabel + signingKey))
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: digest.prefix(16)) }
        raw.6 = (raw.6 & 0x0F) | 0x80
        raw.8 = (raw.8 & 0x3F) | 0x80
        return UserID(UUID(uuid: raw))
    }

    /// Whether this id is the one `signingKey` derives.
    public func isDerived(from signingKey: [UInt8]) -> Bool { self == Self.derived(from: signingKey) }
}
