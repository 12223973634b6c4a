@testable import BlueproofTransmitter
import Foundation
import Testing

@Suite("Identity and public key bundle")
struct IdentityTests {
    @Test("a generated identity exports an RSA-2048 SPKI and a 32-byte Ed25519 key")
    func generatedShape() throws {
        let alice = try #require(IdentityFixtures.alice)
        #expect(alice.publicKeys.signingKey.count == 32)
        // SPKI DER of an RSA-2048 key with exponent 65537 is 294 bytes.
        #expect(alice.publicKeys.encryptionKeyDER.count == 294)
        #expect(alice.publicKeys.encryptionKeyDER.first == 0x30)
        #expect(alice != IdentityFixtures.bob)
    }

    @Test("the base64 export reads back to the same bundle")
    func base64RoundTrip() throws {
        for identity in [IdentityFixtures.alice, IdentityFixtures.bob] {
            let bundle = try #require(identity).publicKeys
            let text = bundle.base64
            #expect(Data(base64Encoded: text) != nil)
            #expect(try PublicKeyBundle(base64: text) == bundle)
            #expect(try PublicKeyBundle(base64: text).base64 == text)
        }
    }

    @Test("the export layout is magic, version 1, DER length, DER, signing key")
    func layout() throws {
        let bundle = try #require(IdentityFixtures.alice).publicKeys
        let bytes = [UInt8](try #require(Data(base64Encoded: bundle.base64)))
        #expect(Array(bytes[0..<3]) == [0x42, 0x4B, 0x01])
        #expect(Int(bytes[3]) << 8 | Int(bytes[4]) == bundle.encryptionKeyDER.count)
        #expect(Array(bytes[5..<(5 + bundle.encryptionKeyDER.count)]) == bundle.encryptionKeyDER)
        #expect(Array(bytes.suffix(32)) == bundle.signingKey)
        #expect(bytes.count == 5 + bundle.encryptionKeyDER.count + 32)
    }

    /// Variants of a valid export, each of which must be refused.
    static func damaged(_ bytes: [UInt8], _ base64: String) -> [(String, String)] {
        func b64(_ b: [UInt8]) -> String { Data(b).base64EncodedString() }
        var wrongVersion = bytes; wrongVersion[2] = 2
        var versionZero = bytes; versionZero[2] = 0
        var wrongMagic = bytes; wrongMagic[0] = 0x41
        var longLength = bytes; longLength[4] &+= 1
        var brokenDER = bytes; brokenDER[5] = 0x31
        return [
            ("empty", ""),
            ("garbage", "this is not a key"),
            ("non-base64 characters", "!!!!"),
            ("base64 of random text", b64(Array("hello, world, not a key".utf8))),
            ("trailing newline", base64 + "\n"),
            ("inner whitespace", String(base64.prefix(8)) + " " + String(base64.dropFirst(8))),
            ("missing padding", base64.filter { $0 != "=" }),
            ("truncated by one byte", b64(Array(bytes.dropLast()))),
            ("truncated to the header", b64(Array(bytes.prefix(5)))),
            ("truncated mid DER", b64(Array(bytes.prefix(100)))),
            ("one extra byte", b64(bytes + [0])),
            ("wrong version 2", b64(wrongVersion)),
            ("wrong version 0", b64(versionZero)),
            ("wrong magic", b64(wrongMagic)),
            ("length field disagrees", b64(longLength)),
            ("DER tag damaged", b64(brokenDER)),
        ]
    }

    @Test("garbage, truncated, extended and wrong-version exports are refused with a detail")
    func strictRefusal() throws {
        let bundle = try #require(IdentityFixtures.alice).publicKeys
        let bytes = [UInt8](try #require(Data(base64Encoded: bundle.base64)))
        let cases = Self.damaged(bytes, bundle.base64)
        // The padding case only tests something if the export has padding.
        for (name, text) in cases where text != bundle.base64 {
            do {
                let parsed = try PublicKeyBundle(base64: text)
                Issue.record("\(name): accepted as \(parsed.signingKey.count)-byte signing key")
            } catch {
                #expect(error == .invalidPublicKey, "\(name)")
                #expect(error.detail != nil, "\(name)")
            }
        }
    }

    @Test("the component initialiser validates both keys")
    func componentValidation() throws {
        let bundle = try #require(IdentityFixtures.alice).publicKeys
        #expect(throws: TransmitterError.invalidPublicKey) {
            try PublicKeyBundle(encryptionKeyDER: bundle.encryptionKeyDER, signingKey: Array(bundle.signingKey.dropLast()))
        }
        #expect(throws: TransmitterError.invalidPublicKey) {
            try PublicKeyBundle(encryptionKeyDER: Array(bundle.encryptionKeyDER.dropLast()), signingKey: bundle.signingKey)
        }
        #expect(throws: TransmitterError.invalidPublicKey) {
            try PublicKeyBundle(encryptionKeyDER: [0x30, 0x03, 0x02, 0x01, 0x01], signingKey: bundle.signingKey)
        }
        // An Ed25519 key in the RSA slot is not an RSA key.
        #expect(throws: TransmitterError.invalidPublicKey) {
            try PublicKeyBundle(encryptionKeyDER: bundle.signingKey, signingKey: bundle.signingKey)
        }
        #expect(try PublicKeyBundle(encryptionKeyDER: bundle.encryptionKeyDER, signingKey: bundle.signingKey) == bundle)
    }

    /// swift-crypto's DER initialiser frees the key twice when both its parses fail (the
    /// intermittent SIGABRT of the test suite): every prefix and every change to the structure of a
    /// valid key must be refused with a typed error, and never reach that initialiser.
    @Test("malformed RSA keys are refused by blueproof's own DER reader, never by swift-crypto's double-freeing one")
    func malformedRSAKeys() throws {
        let bundle = try #require(IdentityFixtures.alice).publicKeys
        let der = bundle.encryptionKeyDER
        let (n, e) = try RSAPublicKeyDER.components(der)
        #expect(n.count == 257 && e == [0x01, 0x00, 0x01])
        for length in 0..<der.count {
            #expect(throws: TransmitterError.invalidPublicKey) { try PublicKeyBundle(encryptionKeyDER: Array(der.prefix(length)), signingKey: bundle.signingKey) }
        }
        for index in 0..<30 {  // the DER structure up to the modulus's leading zero
            var changed = der
            changed[index] ^= 0x01
            #expect(throws: TransmitterError.invalidPublicKey) { try PublicKeyBundle(encryptionKeyDER: changed, signingKey: bundle.signingKey) }
        }
        #expect(throws: TransmitterError.invalidPublicKey) { try RSAPublicKeyDER.components(der + [0]) }
        #expect(throws: TransmitterError.invalidPublicKey) { try RSAPublicKeyDER.components([UInt8](repeating: 0x30, count: 2000)) }
    }

    @Test("signatures are 64 bytes and verify only for the signer's key and the signed message")
    func signatures() throws {
        let alice = try #require(IdentityFixtures.alice)
        let bob = try #require(IdentityFixtures.bob)
        let message = Array("meet at the north gate".utf8)
        let signature = try alice.sign(message)
        #expect(signature.count == 64)
        #expect(PacketSealer.verify(signature: signature, of: message, by: alice.publicKeys))
        #expect(!PacketSealer.verify(signature: signature, of: message, by: bob.publicKeys))
        var altered = message; altered[0] ^= 0x01
        #expect(!PacketSealer.verify(signature: signature, of: altered, by: alice.publicKeys))
        #expect(!PacketSealer.verify(signature: signature, of: message + [0], by: alice.publicKeys))
        var badSignature = signature; badSignature[10] ^= 0x80
        #expect(!PacketSealer.verify(signature: badSignature, of: message, by: alice.publicKeys))
        #expect(!PacketSealer.verify(signature: Array(signature.dropLast()), of: message, by: alice.publicKeys))
        #expect(!PacketSealer.verify(signature: try bob.sign(message), of: message, by: alice.publicKeys))
    }

    @Test("identities are equal by user id and public keys")
    func equality() throws {
        let alice = try #require(IdentityFixtures.alice)
        let fresh = try TransmitterIdentity.generate(userID: alice.userID)
        #expect(fresh.userID == alice.userID)
        #expect(fresh != alice)
        #expect(fresh.publicKeys != alice.publicKeys)
    }

    @Test("an identity rebuilt from unusable private keys is refused")
    func badPrivateKeys() {
        #expect(throws: TransmitterError.invalidPublicKey) {
            try TransmitterIdentity(userID: .random(), encryptionPrivateKeyDER: [1, 2, 3], signingPrivateKey: Array(repeating: 7, count: 32))
        }
    }
}
