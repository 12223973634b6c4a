/// The body of `keyRequest` and `keyResponse`: a user's exported public keys (the base64 text of
/// `PublicKeyBundle`, as `localPublicKey` returns it), signed with that user's signing key so a
/// peer cannot hand out keys in another user's name. Source: bridgefy-ios-sdk-readme.md,
/// "Secure connections" and "Export and import keys".
public struct KeyExchangeFrame: Hashable, Sendable {
    public var user: UserID
    /// `PublicKeyBundle.base64`.
    public var publicKey: String
    /// Ed25519 signature (64 bytes) over `signedBytes(kind:)`.
    public var signature: [UInt8]

    public init(user: UserID, publicKey: String, signature: [UInt8]) {
        self.user = user
        self.publicKey = publicKey
        self.signature = signature
    }

    /// A frame of `kind` naming `user`, carrying `signer`'s exported keys and signed by them:
    /// an honest exchange names the signer itself; a forgery by a relay names someone else.
    public static func signed(_ kind: FrameKind, naming user: UserID, by signer: TransmitterIdentity) throws(TransmitterError) -> KeyExchangeFrame {
        let key = signer.publicKeys.base64
        return KeyExchangeFrame(user: user, publicKey: key, signature: try signer.sign(signedBytes(kind: kind, user: user, publicKey: key)))
    }

    /// The bytes the signature covers: the kind byte, the user id and the key text.
    public static func signedBytes(kind: FrameKind, user: UserID, publicKey: String) -> [UInt8] {
        [kind.rawValue] + user.bytes + Array(publicKey.utf8)
    }

    func encodeBody(into out: inout [UInt8]) {
        out.append(contentsOf: user.bytes)
        let key = Array(publicKey.utf8)
        out.appendU16(UInt16(clamping: key.count))
        out.append(contentsOf: key.prefix(Int(UInt16.max)))
        out.append(UInt8(clamping: signature.count))
        out.append(contentsOf: signature.prefix(255))
    }

    static func decodeBody(_ reader: inout FrameReader) throws(FrameError) -> KeyExchangeFrame {
        let user = try reader.userID()
        let keyOffset = reader.offset
        let keyLength = Int(try reader.u16())
        guard let key = String(validating: try reader.take(keyLength), as: UTF8.self) else {
            throw FrameError(offset: keyOffset, reason: .invalidField("public key is not UTF-8"))
        }
        let signature = Array(try reader.take(Int(try reader.u8())))
        return KeyExchangeFrame(user: user, publicKey: key, signature: signature)
    }
}
