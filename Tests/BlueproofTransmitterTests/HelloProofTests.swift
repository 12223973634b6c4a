import BlueproofTransmitter
import Crypto
import Testing

/// The hello's challenge and proof (docs/transmitter-wire.md "hello"): layout, and a proof good
/// for one receiver and one challenge only.
@Suite("Hello proof")
struct HelloProofTests {
    static let sender = UserID("6655a16c-8209-46c4-9c51-21d8df3efb95")!
    static let receiver = UserID("00112233-4455-6677-8899-aabbccddeeff")!

    static func proved(challenge: [UInt8], key: Curve25519.Signing.PrivateKey) throws -> HelloFrame {
        var hello = HelloFrame(user: sender, displayName: "Ana", nonce: Array(repeating: 7, count: 16))
        let raw = Array(key.publicKey.rawRepresentation)
        let signature = Array(try key.signature(for: hello.signedBytes(receiver: receiver, answering: challenge, signingKey: raw)))
        hello.proof = HelloFrame.Proof(signingKey: raw, signature: signature)
        return hello
    }

    @Test("a proved hello round-trips: claim, nonce, key, signature")
    func layout() throws {
        let hello = try Self.proved(challenge: Array(repeating: 1, count: 16), key: Curve25519.Signing.PrivateKey())
        let bytes = TransmitterFrame.hello(hello).encoded()
        #expect(bytes.count == 6 + 16 + 1 + 4 + 16 + 32 + 64)
        #expect(bytes[22] == 0x05)
        #expect(try TransmitterFrame.decode(bytes) == .hello(hello))
        for length in 0..<bytes.count {
            #expect(throws: FrameError.self) { try TransmitterFrame.decode(Array(bytes.prefix(length))) }
        }
    }

    @Test("a proof verifies for its receiver and challenge only")
    func binding() throws {
        let challenge = Array(repeating: UInt8(1), count: 16)
        let hello = try Self.proved(challenge: challenge, key: Curve25519.Signing.PrivateKey())
        let proof = try #require(hello.proof)
        #expect(proof.verifies(hello.signedBytes(receiver: Self.receiver, answering: challenge, signingKey: proof.signingKey)))
        #expect(!proof.verifies(hello.signedBytes(receiver: Self.sender, answering: challenge, signingKey: proof.signingKey)))
        #expect(!proof.verifies(hello.signedBytes(receiver: Self.receiver, answering: Array(repeating: 2, count: 16), signingKey: proof.signingKey)))
        var renamed = hello
        renamed.displayName = "Eve"
        #expect(!proof.verifies(renamed.signedBytes(receiver: Self.receiver, answering: challenge, signingKey: proof.signingKey)))
    }
}
