import Foundation

/// A packet on the wire: direct, mesh or broadcast, plain or encrypted
/// (docs/transmitter-wire.md, "data"). Source: bridgefy-ios-sdk-readme.md, "Direct and mesh
/// transmission", "Mesh", "Broadcast messages".
///
/// The sender signs every field except `hopsRemaining` (relays decrement it), so a relay can
/// neither forge the sender nor alter the payload. An encrypted frame travels **sealed**
/// (docs/security.md, "Metadata"): its sender id, signing key and signature go inside the sealed
/// payload with the payload encoding, so the header shows only what routing needs; `sealed(to:)`
/// and `opened(with:)` move them in and out. A sealed frame has `sender` nil.
public struct DataFrame: Hashable, Sendable {
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let broadcast = Flags(rawValue: 0x01)
        public static let mesh = Flags(rawValue: 0x02)
        public static let encrypted = Flags(rawValue: 0x04)
        public static let hasDictionary = Flags(rawValue: 0x08)
        public static let hasBinary = Flags(rawValue: 0x10)
        static let known: Flags = [.broadcast, .mesh, .encrypted, .hasDictionary, .hasBinary]
    }

    public var flags: Flags
    /// Transmissions still allowed after this one; a relay forwards only when it is above zero.
    public var hopsRemaining: UInt8
    public var packetID: PacketID
    /// The sender; nil exactly while the frame is sealed (encrypted and not yet opened).
    public var sender: UserID?
    /// The receiver; nil exactly when `flags` holds `.broadcast`.
    public var receiver: UserID?
    /// Milliseconds since 1970-01-01 UTC after which nobody forwards the packet.
    public var expiry: UInt64
    /// The sender's Ed25519 signing key (32 bytes), checked against the key on record; empty
    /// while sealed.
    public var senderKey: [UInt8]
    /// The payload encoding (docs/transmitter.md, "Payload encoding"), or its sealed form.
    public var payload: [UInt8]
    /// Ed25519 signature (64 bytes) over `signedBytes`; empty while sealed.
    public var signature: [UInt8]

    public static let senderKeySize = 32
    public static let signatureSize = 64

    public init(flags: Flags, hopsRemaining: UInt8, packetID: PacketID, sender: UserID?, receiver: UserID?, expiry: UInt64, senderKey: [UInt8], payload: [UInt8], signature: [UInt8] = []) {
        self.flags = flags
        self.hopsRemaining = hopsRemaining
        self.packetID = packetID
        self.sender = sender
        self.receiver = receiver
        self.expiry = expiry
        self.senderKey = senderKey
        self.payload = payload
        self.signature = signature
    }

    /// The expiry as a date.
    public var expiryDate: Date { Date(timeIntervalSince1970: Double(expiry) / 1000) }

    /// Milliseconds since 1970 for `date` (dates before 1970 become 0).
    public static func milliseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// Whether the sender's part is inside the payload: encrypted and not opened.
    public var isSealed: Bool { flags.contains(.encrypted) && sender == nil }

    /// The header a relay reads, without the hop field: version, kind, flags, packet id,
    /// receiver, expiry. The associated data of a sealed payload, so it cannot be moved under
    /// another header.
    public var associatedData: [UInt8] {
        var out: [UInt8] = [TransmitterFrame.version, FrameKind.data.rawValue, flags.rawValue]
        out.append(contentsOf: withUnsafeBytes(of: packetID.uuid) { Array($0) })
        if let receiver { out.append(contentsOf: receiver.bytes) }
        out.appendU64(expiry)
        return out
    }

    /// What the signature covers: version, kind, flags, packet id, sender, receiver, expiry,
    /// sender key, then the payload length and bytes (of the plain payload when encrypted).
    public var signedBytes: [UInt8] {
        var out: [UInt8] = [TransmitterFrame.version, FrameKind.data.rawValue, flags.rawValue]
        out.append(contentsOf: withUnsafeBytes(of: packetID.uuid) { Array($0) })
        out.append(contentsOf: sender?.bytes ?? [])
        if let receiver { out.append(contentsOf: receiver.bytes) }
        out.appendU64(expiry)
        out.append(contentsOf: senderKey)
        out.appendU32(UInt32(clamping: payload.count))
        out.append(contentsOf: payload)
        return out
    }

    /// Bytes in front of the payload encoding inside a sealed payload: sender id, key, signature.
    static let sealedOriginSize = idSize + senderKeySize + signatureSize
    static let idSize = 16

    /// This signed, encrypted frame sealed for `recipient`: sender id, key, signature and
    /// payload encoding become one `PacketSealer` payload bound to `associatedData`.
    public func sealed(to recipient: PublicKeyBundle) throws(TransmitterError) -> DataFrame {
        var frame = self
        frame.payload = try PacketSealer.seal((sender?.bytes ?? []) + senderKey + signature + payload,
                                              to: recipient, associatedData: associatedData)
        frame.sender = nil
        frame.senderKey = []
        frame.signature = []
        return frame
    }

    /// This sealed frame opened by its recipient: sender, key, signature and plain payload
    /// restored. The signature is not checked here (the receiver does, `signedBytes`).
    public func opened(with identity: TransmitterIdentity) throws(PacketSealerError) -> DataFrame {
        try opened(with: identity, checkingTag: true)
    }

    /// `checkingTag` false: the `tagUnchecked` variant's opening (`PacketSealer.open`).
    func opened(with identity: TransmitterIdentity, checkingTag: Bool) throws(PacketSealerError) -> DataFrame {
        let inner = try PacketSealer.open(payload, with: identity, associatedData: associatedData, checkingTag: checkingTag)
        guard inner.count >= Self.sealedOriginSize else {
            throw .malformed.with(detail: "sealed content of \(inner.count) bytes, sender id, key and signature need \(Self.sealedOriginSize)")
        }
        var frame = self
        frame.sender = UserID(bytes: inner[0..<Self.idSize])
        frame.senderKey = Array(inner[Self.idSize..<(Self.idSize + Self.senderKeySize)])
        frame.signature = Array(inner[(Self.idSize + Self.senderKeySize)..<Self.sealedOriginSize])
        frame.payload = Array(inner[Self.sealedOriginSize...])
        return frame
    }

    /// This frame with its signature made by `identity` over `signedBytes`.
    public func signed(by identity: TransmitterIdentity) throws(TransmitterError) -> DataFrame {
        var frame = self
        frame.signature = try identity.sign(signedBytes)
        return frame
    }

    /// Writes the body. The sender id, key and signature go in clear when the frame carries
    /// them: a plain frame always, a sealed one never. (An opened frame would be written with
    /// them in clear, the layout before issue 15 that decoders refuse; only the
    /// `senderInClear` variant sends one.)
    func encodeBody(into out: inout [UInt8]) {
        out.append(flags.rawValue)
        out.append(hopsRemaining)
        out.append(contentsOf: withUnsafeBytes(of: packetID.uuid) { Array($0) })
        if let sender { out.append(contentsOf: sender.bytes) }
        if let receiver { out.append(contentsOf: receiver.bytes) }
        out.appendU64(expiry)
        if sender != nil { out.append(contentsOf: senderKey) }
        out.appendU32(UInt32(clamping: payload.count))
        out.append(contentsOf: payload)
        if sender != nil { out.append(contentsOf: signature) }
    }

    static func decodeBody(_ reader: inout FrameReader) throws(FrameError) -> DataFrame {
        let flagsOffset = reader.offset
        let flags = Flags(rawValue: try reader.u8())
        guard Flags.known.isSuperset(of: flags) else {
            throw FrameError(offset: flagsOffset, reason: .invalidField("unknown data flags \(flags.rawValue)"))
        }
        guard !flags.isDisjoint(with: [.hasDictionary, .hasBinary]) else {
            throw FrameError(offset: flagsOffset, reason: .invalidField("data frame carries neither dictionary nor binary"))
        }
        guard !flags.isSuperset(of: [.broadcast, .encrypted]) else {
            throw FrameError(offset: flagsOffset, reason: .invalidField("a broadcast cannot be encrypted"))
        }
        let sealed = flags.contains(.encrypted)
        let hops = try reader.u8()
        let packetID = UUID(uuid: try reader.userID().uuid.uuid)
        let sender = sealed ? nil : try reader.userID()
        var receiver: UserID?
        if !flags.contains(.broadcast) { receiver = try reader.userID() }
        let expiry = try reader.u64()
        let senderKey = sealed ? [] : Array(try reader.take(senderKeySize))
        let payload = Array(try reader.take(Int(try reader.u32())))
        let signature = sealed ? [] : Array(try reader.take(signatureSize))
        return DataFrame(flags: flags, hopsRemaining: hops, packetID: packetID, sender: sender, receiver: receiver, expiry: expiry, senderKey: senderKey, payload: payload, signature: signature)
    }
}
