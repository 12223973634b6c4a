import BlueproofTransmitter
import Foundation
import Testing

/// Where `needle` first occurs in `bytes`.
enum MetadataSearch {
    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

@Suite("Frame wire format")
struct FrameCodecTests {
    static let user = UserID("6655a16c-8209-46c4-9c51-21d8df3efb95")!
    static let other = UserID("00112233-4455-6677-8899-aabbccddeeff")!
    static let packet = UUID(uuidString: "0f0e0d0c-0b0a-0908-0706-050403020100")!

    static func dataFrame(broadcast: Bool = false) -> DataFrame {
        DataFrame(flags: broadcast ? [.broadcast, .mesh, .hasDictionary] : [.mesh, .hasDictionary, .hasBinary],
                  hopsRemaining: 7, packetID: packet, sender: user, receiver: broadcast ? nil : other,
                  expiry: 0x0102_0304_0506_0708, senderKey: Array(repeating: 0xAB, count: 32),
                  payload: [1, 2, 3], signature: Array(repeating: 0xCD, count: 64))
    }

    @Test("hello: exact bytes and round trip")
    func helloBytes() throws {
        let frame = TransmitterFrame.hello(HelloFrame(user: Self.user, displayName: "Ana", deviceType: "iOS"))
        let bytes = frame.encoded()
        #expect(Array(bytes.prefix(6)) == [3, 1, 0, 0, 0, 41])
        #expect(Array(bytes[6..<22]) == Self.user.bytes)
        #expect(Array(bytes[22...]) == [0x03, 3, 0x41, 0x6E, 0x61, 3, 0x69, 0x4F, 0x53] + Array(repeating: 0, count: 16))
        #expect(try TransmitterFrame.decode(bytes) == frame)
        let bare = TransmitterFrame.hello(HelloFrame(user: Self.user))
        #expect(try TransmitterFrame.decode(bare.encoded()) == bare)
    }

    @Test("data: layout, round trip, receiver absent for broadcast")
    func dataBytes() throws {
        let unicast = TransmitterFrame.data(Self.dataFrame())
        let bytes = unicast.encoded()
        #expect(bytes.count == 6 + 1 + 1 + 16 + 16 + 16 + 8 + 32 + 4 + 3 + 64)
        #expect(bytes[1] == 4 && bytes[6] == 0x1A && bytes[7] == 7)
        #expect(try TransmitterFrame.decode(bytes) == unicast)
        let broadcast = TransmitterFrame.data(Self.dataFrame(broadcast: true))
        #expect(broadcast.encoded().count == bytes.count - 16)
        #expect(try TransmitterFrame.decode(broadcast.encoded()) == broadcast)
    }

    @Test("the signature covers everything but the hop field")
    func signedBytes() {
        var frame = Self.dataFrame()
        let signed = frame.signedBytes
        frame.hopsRemaining = 0
        #expect(frame.signedBytes == signed)
        frame.payload = [9]
        #expect(frame.signedBytes != signed)
        // What a relay reads: no sender, no key.
        #expect(frame.associatedData.count == 3 + 16 + 16 + 8)
    }

    @Test("sealed data: the sender's id, key and signature only inside; opened by its recipient alone")
    func sealedSender() throws {
        let sender = try TransmitterIdentity.generate(), recipient = try TransmitterIdentity.generate()
        var frame = DataFrame(flags: [.mesh, .encrypted, .hasDictionary], hopsRemaining: 3, packetID: Self.packet, sender: sender.userID,
                              receiver: recipient.userID, expiry: 0x0102_0304_0506_0708, senderKey: sender.publicKeys.signingKey,
                              payload: try TransmitterPayload(dictionary: ["text": .string("hi")]).encoded())
        frame = try frame.signed(by: sender)
        let sealed = try frame.sealed(to: recipient.publicKeys)
        #expect(sealed.isSealed && sealed.sender == nil && sealed.senderKey.isEmpty && sealed.signature.isEmpty)
        let bytes = TransmitterFrame.data(sealed).encoded()
        #expect(bytes.count == 6 + 1 + 1 + 16 + 16 + 8 + 4 + sealed.payload.count)
        for secret in [sender.userID.bytes, sender.publicKeys.signingKey, frame.signature] {
            #expect(MetadataSearch.offset(of: secret, in: bytes) == nil)
        }
        let decoded = try TransmitterFrame.decode(bytes)
        #expect(decoded == .data(sealed))
        #expect(try sealed.opened(with: recipient) == frame)
        #expect(throws: PacketSealerError.wrongRecipient) { try sealed.opened(with: sender) }
        // Moved under another header (a later expiry), it does not open.
        var moved = sealed
        moved.expiry += 1
        #expect(throws: PacketSealerError.tampered) { try moved.opened(with: recipient) }
        // Encrypted broadcasts do not exist on the wire.
        var broadcast = bytes
        broadcast[6] |= DataFrame.Flags.broadcast.rawValue
        #expect(throws: FrameError.self) { try TransmitterFrame.decode(broadcast) }
    }

    @Test("key exchange round trip")
    func keyExchange() throws {
        let frame = TransmitterFrame.keyRequest(KeyExchangeFrame(user: Self.user, publicKey: "QUJD", signature: Array(repeating: 1, count: 64)))
        #expect(try TransmitterFrame.decode(frame.encoded()) == frame)
        let response = TransmitterFrame.keyResponse(KeyExchangeFrame(user: Self.user, publicKey: "QUJD", signature: []))
        #expect(try TransmitterFrame.decode(response.encoded()) == response)
    }

    @Test("errors: truncated, unknown version, unknown kind, length mismatch, bad flags")
    func errors() {
        let bytes = TransmitterFrame.data(Self.dataFrame()).encoded()
        #expect(throws: FrameError(offset: 0, reason: .truncated(needed: 1))) { try TransmitterFrame.decode([]) }
        #expect(throws: FrameError(offset: 0, reason: .unknownVersion(1))) { try TransmitterFrame.decode([1] + bytes.dropFirst()) }
        #expect(throws: FrameError(offset: 0, reason: .unknownVersion(2))) { try TransmitterFrame.decode([2] + bytes.dropFirst()) }
        #expect(throws: FrameError(offset: 1, reason: .unknownKind(9))) { try TransmitterFrame.decode([3, 9] + bytes.dropFirst(2)) }
        #expect(throws: FrameError(offset: 2, reason: .lengthMismatch(declared: bytes.count - 6, actual: bytes.count - 7))) {
            try TransmitterFrame.decode(Array(bytes.dropLast()))
        }
        // Declared length consistent, but the payload length field claims more than is there.
        var short = bytes
        short[6 + 1 + 1 + 48 + 8 + 32 + 3] = 200
        #expect(throws: FrameError.self) { try TransmitterFrame.decode(short) }
        var badFlags = bytes
        badFlags[6] = 0x80
        #expect(throws: FrameError(offset: 6, reason: .invalidField("unknown data flags 128"))) { try TransmitterFrame.decode(badFlags) }
        // A trailing byte inside the declared body.
        var trailing = TransmitterFrame.hello(HelloFrame(user: Self.user)).encoded()
        trailing[5] += 1
        trailing.append(0)
        #expect(throws: FrameError(offset: 39, reason: .lengthMismatch(declared: 34, actual: 33))) { try TransmitterFrame.decode(trailing) }
    }

    @Test("no prefix of a frame decodes, and nothing traps")
    func prefixes() {
        let bytes = TransmitterFrame.data(Self.dataFrame()).encoded()
        for length in 0..<bytes.count {
            #expect(throws: FrameError.self) { try TransmitterFrame.decode(Array(bytes.prefix(length))) }
        }
    }

    @Test("payload decoding inverts the encoding, binary values and $ keys included")
    func payloadRoundTrip() throws {
        let dictionary: [String: TransmitterValue] = [
            "text": .string("Message text \"quoted\" \\ é 😀\n"), "sequence": .integer(3546), "duration": .number(656.2973),
            "success": .bool(true), "nothing": .null, "$binary": .string("not binary"),
            "image": .binary(Data([0, 1, 2, 255])), "list": .array([.integer(-1), .number(5.0), .object(["a": .bool(false)])]),
        ]
        let payload = try TransmitterPayload(dictionary: dictionary, data: Data([7, 7]))
        let decoded = try TransmitterPayload.decode(payload.encoded())
        #expect(decoded == payload)
        #expect(throws: FrameError.self) { try TransmitterPayload.decode([1, 0x01, 0, 0, 0, 2, 0x7B, 0x7B]) }
        #expect(throws: FrameError(offset: 0, reason: .unknownVersion(2))) { try TransmitterPayload.decode([2, 0]) }
    }
}
