import Foundation

/// A packet on the wire: direct, mesh or broadcast, plain or encrypted
/// (docs/transmitter-wire.md, "data"). Source: bridgefy-ios-sdk-readme.md, "Direct and mesh
/// transmission", "Mesh", "Broadcast messages".
///
/// The sender signs every field except `hopsRemaining` (relays decrement it), so a relay can
/// neither forge the sender nor alter the payload. When encrypted, `payload` is the sealed
/// `TransmitterPayload` encoding and `associatedData` binds it to this header.
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
    public var sender: UserID
    /// The receiver; nil exactly when `flags` holds `.broadcast`.
    public var receiver: UserID?
    /// Milliseconds since 1970-01-01 UTC after which nobody forwards the packet.
    public var expiry: UInt64
    /// The sender's Ed25519 signing key (32 bytes), checked against the key on record.
    public var senderKey: [UInt8]
    /// The payload encoding (docs/transmitter.md, "Payload encoding"), or its sealed form.
    public var payload: [UInt8]
    /// Ed25519 signature (64 bytes) over `signedBytes`.
    public var signature: [UInt8]

    public static let senderKeySize = 32
    public static let signatureSize = 64

    public init(flags: Flags, hopsRemaining: UInt8, packetID: PacketID, sender: UserID, receiver: UserID?, expiry: UInt64, senderKey: [UInt8], payload: [UInt8], signature: [UInt8] = []) {
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

    /// The header without the hop field: version, kind, flags, packet id, sender, receiver,
    /// expiry, sender key. The associated data of the sealed payload.
    public var associatedData: [UInt8] {
        var out: [UInt8] = [TransmitterFrame.version, FrameKind.data.rawValue, flags.rawValue]
        out.append(contentsOf: withUnsafeBytes(of: packetID.uuid) { Array($0) })
        out.append(contentsOf: sender.bytes)
        if let receiver { out.append(contentsOf: receiver.bytes) }
        out.appendU64(expiry)
        out.append(contentsOf: senderKey)
        return out
    }

    /// What the signature covers: `associatedData`, then the payload length and bytes.
    public var signedBytes: [UInt8] {
        var out = associatedData
        out.appendU32(UInt32(clamping: payload.count))
        out.append(contentsOf: payload)
        return out
    }

    /// This frame with its signature made by `identity` over `signedBytes`.
    public func signed(by identity: TransmitterIdentity) throws(TransmitterError) -> DataFrame {
        var frame = self
        frame.signature = try identity.sign(signedBytes)
        return frame
    }

    func encodeBody(into out: inout [UInt8]) {
        out.append(flags.rawValue)
        out.append(hopsRemaining)
        out.append(contentsOf: withUnsafeBytes(of: packetID.uuid) { Array($0) })
        out.append(contentsOf: sender.bytes)
        if let receiver { out.append(contentsOf: receiver.bytes) }
        out.appendU64(expiry)
        out.append(contentsOf: senderKey)
        out.appendU32(UInt32(clamping: payload.count))
        out.append(contentsOf: payload)
        out.append(contentsOf: signature)
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
        let hops = try reader.u8()
        let packetID = UUID(uuid: try reader.userID().uuid.uuid)
        let sender = try reader.userID()
        var receiver: UserID?
        if !flags.contains(.broadcast) { receiver = try reader.userID() }
        let expiry = try reader.u64()
        let senderKey = Array(try reader.take(senderKeySize))
        let payload = Array(try reader.take(Int(try reader.u32())))
        let signature = Array(try reader.take(signatureSize))
        return DataFrame(flags: flags, hopsRemaining: hops, packetID: packetID, sender: sender, receiver: receiver, expiry: expiry, senderKey: senderKey, payload: payload, signature: signature)
    }
}
