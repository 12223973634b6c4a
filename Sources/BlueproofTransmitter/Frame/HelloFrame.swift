import Crypto

/// The first frames on every connection (docs/transmitter-wire.md "hello"): the sender's user
/// id, for the chat app its name and device type (bridgefy-chat-app-tutorial.md shows a peer by
/// name once it is known), a fresh challenge, and once the peer's challenge is known, a proof.
///
/// Each side opens with a hello carrying its challenge (`nonce`) and no proof; each answers the
/// peer's challenge with a second hello whose `proof` is its Ed25519 signature over
/// ``signedBytes(receiver:answering:)``: both ids and the peer's challenge, so a proof is good on
/// one connection only and a recorded hello cannot be replayed (docs/security.md "Hello
/// impersonation").
public struct HelloFrame: Hashable, Sendable {
    /// The proof of a hello: the sender's public signing key and its signature.
    public struct Proof: Hashable, Sendable {
        /// Raw Ed25519 public key, 32 bytes.
        public var signingKey: [UInt8]
        /// Ed25519 signature, 64 bytes.
        public var signature: [UInt8]

        public init(signingKey: [UInt8], signature: [UInt8]) {
            self.signingKey = signingKey
            self.signature = signature
        }

        /// Whether `signature` is `signingKey`'s Ed25519 signature over `message`.
        public func verifies(_ message: [UInt8]) -> Bool {
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey) else { return false }
            return key.isValidSignature(signature, for: message)
        }
    }

    public var user: UserID
    public var displayName: String?
    public var deviceType: String?
    /// The sender's challenge for this connection (``nonceSize`` random bytes).
    public var nonce: [UInt8]
    /// Present in the answer to the peer's challenge.
    public var proof: Proof?

    public static let nonceSize = 16
    public static let signingKeySize = 32
    public static let signatureSize = 64

    public init(user: UserID, displayName: String? = nil, deviceType: String? = nil,
                nonce: [UInt8] = Array(repeating: 0, count: HelloFrame.nonceSize), proof: Proof? = nil) {
        self.user = user
        self.displayName = displayName
        self.deviceType = deviceType
        self.nonce = nonce
        self.proof = proof
    }

    static let hasName: UInt8 = 0x01
    static let hasDeviceType: UInt8 = 0x02
    static let hasProof: UInt8 = 0x04

    private var flags: UInt8 {
        (displayName == nil ? 0 : Self.hasName) | (deviceType == nil ? 0 : Self.hasDeviceType) | (proof == nil ? 0 : Self.hasProof)
    }

    /// Every field up to and including the nonce (the proof covers them all), with `flags`.
    private func encodeClaim(into out: inout [UInt8], flags: UInt8) {
        out.append(contentsOf: user.bytes)
        out.append(flags)
        if let displayName { out.appendShortText(displayName) }
        if let deviceType { out.appendShortText(deviceType) }
        out.append(contentsOf: nonce)
    }

    /// What the proof signs: `version ‖ kind ‖ sender ‖ receiver ‖ the receiver's challenge ‖
    /// flags (proof bit set) ‖ [name] ‖ [device] ‖ nonce ‖ signing key`. The receiver rebuilds it
    /// with its own id and challenge, so a proof made for another peer or connection does not
    /// verify.
    public func signedBytes(receiver: UserID, answering challenge: [UInt8], signingKey: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [TransmitterFrame.version, FrameKind.hello.rawValue]
        out.append(contentsOf: user.bytes)
        out.append(contentsOf: receiver.bytes)
        out.append(contentsOf: challenge)
        var claim: [UInt8] = []
        encodeClaim(into: &claim, flags: flags | Self.hasProof)
        out.append(contentsOf: claim.dropFirst(16))
        out.append(contentsOf: signingKey)
        return out
    }

    /// `identity`'s answer to `receiver`'s challenge: this hello with its proof.
    public static func answer(by identity: TransmitterIdentity, to receiver: UserID, challenge: [UInt8], displayName: String? = nil,
                              deviceType: String? = nil, nonce: [UInt8]) throws(TransmitterError) -> HelloFrame {
        var hello = HelloFrame(user: identity.userID, displayName: displayName, deviceType: deviceType, nonce: nonce)
        let key = identity.publicKeys.signingKey
        hello.proof = Proof(signingKey: key, signature: try identity.sign(hello.signedBytes(receiver: receiver, answering: challenge, signingKey: key)))
        return hello
    }

    func encodeBody(into out: inout [UInt8]) {
        encodeClaim(into: &out, flags: flags)
        if let proof {
            out.append(contentsOf: proof.signingKey)
            out.append(contentsOf: proof.signature)
        }
    }

    static func decodeBody(_ reader: inout FrameReader) throws(FrameError) -> HelloFrame {
        let user = try reader.userID()
        let flagsOffset = reader.offset
        let flags = try reader.u8()
        guard flags & ~(hasName | hasDeviceType | hasProof) == 0 else {
            throw FrameError(offset: flagsOffset, reason: .invalidField("unknown hello flags \(flags)"))
        }
        var name: String?
        var device: String?
        if flags & hasName != 0 { name = try reader.shortText() }
        if flags & hasDeviceType != 0 { device = try reader.shortText() }
        let nonce = Array(try reader.take(nonceSize))
        var proof: Proof?
        if flags & hasProof != 0 {
            proof = Proof(signingKey: Array(try reader.take(signingKeySize)), signature: Array(try reader.take(signatureSize)))
        }
        return HelloFrame(user: user, displayName: name, deviceType: device, nonce: nonce, proof: proof)
    }
}
