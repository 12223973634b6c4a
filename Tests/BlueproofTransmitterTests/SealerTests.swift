import BlueproofTransmitter
import Foundation
import Testing

@Suite("Packet sealer")
struct SealerTests {
    static let associatedData: [UInt8] = Array("packet 42 from alice".utf8)

    /// Offsets of the layout parts for an RSA-2048 recipient (see `PacketSealer`).
    enum Layout {
        static let fingerprint = 1
        static let wrappedKey = 11
        static let nonce = 11 + 256
        static let body = 11 + 256 + 12
        static let overhead = body + 16
    }

    @Test("seal then open gives the plaintext back", arguments: [0, 1, 31, 1_000, 10_000])
    func roundTrip(size: Int) throws {
        let bob = try #require(IdentityFixtures.bob)
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let sealed = try PacketSealer.seal(plaintext, to: bob.publicKeys, associatedData: Self.associatedData)
        #expect(try PacketSealer.open(sealed, with: bob, associatedData: Self.associatedData) == plaintext)
        // One RSA block whatever the size, and no compression: the body is exactly as long as the plaintext.
        #expect(sealed.count == Layout.overhead + size)
        #expect(sealed[0] == PacketSealer.formatVersion)
        #expect(Int(sealed[9]) << 8 | Int(sealed[10]) == 256)
    }

    @Test("a packet opened by another identity is refused as for another recipient")
    func wrongIdentity() throws {
        let alice = try #require(IdentityFixtures.alice)
        let bob = try #require(IdentityFixtures.bob)
        let sealed = try PacketSealer.seal(Array("for bob only".utf8), to: bob.publicKeys, associatedData: [])
        #expect(throws: PacketSealerError.wrongRecipient) {
            try PacketSealer.open(sealed, with: alice, associatedData: [])
        }
    }

    @Test("a flipped bit anywhere after the recipient fingerprint is detected as tampering")
    func flippedBits() throws {
        let bob = try #require(IdentityFixtures.bob)
        let plaintext = Array("the convoy leaves at dawn".utf8)
        let sealed = try PacketSealer.seal(plaintext, to: bob.publicKeys, associatedData: Self.associatedData)
        let positions: [(String, Int)] = [
            ("wrapped key first byte", Layout.wrappedKey),
            ("wrapped key middle", Layout.wrappedKey + 128),
            ("wrapped key last byte", Layout.nonce - 1),
            ("nonce", Layout.nonce + 3),
            ("ciphertext first byte", Layout.body),
            ("ciphertext last byte", Layout.body + plaintext.count - 1),
            ("tag", sealed.count - 1),
        ]
        for (name, index) in positions {
            for bit in [0, 7] {
                var damaged = sealed
                damaged[index] ^= UInt8(1 << bit)
                #expect(throws: PacketSealerError.tampered, "\(name) bit \(bit)") {
                    try PacketSealer.open(damaged, with: bob, associatedData: Self.associatedData)
                }
            }
        }
        var fingerprint = sealed; fingerprint[Layout.fingerprint] ^= 0x01
        #expect(throws: PacketSealerError.wrongRecipient) {
            try PacketSealer.open(fingerprint, with: bob, associatedData: Self.associatedData)
        }
        var version = sealed; version[0] ^= 0x01
        #expect(throws: PacketSealerError.malformed) {
            try PacketSealer.open(version, with: bob, associatedData: Self.associatedData)
        }
    }

    @Test("changed associated data is detected as tampering")
    func associatedDataBound() throws {
        let bob = try #require(IdentityFixtures.bob)
        let sealed = try PacketSealer.seal(Array("hello".utf8), to: bob.publicKeys, associatedData: Self.associatedData)
        var flipped = Self.associatedData; flipped[3] ^= 0x04
        for other in [flipped, [], Self.associatedData + [0], Array(Self.associatedData.dropLast())] {
            #expect(throws: PacketSealerError.tampered) {
                try PacketSealer.open(sealed, with: bob, associatedData: other)
            }
        }
    }

    @Test("every truncation of a sealed packet is refused")
    func truncations() throws {
        let bob = try #require(IdentityFixtures.bob)
        let sealed = try PacketSealer.seal(Array("short".utf8), to: bob.publicKeys, associatedData: [])
        for length in [0, 1, 10, 11, Layout.nonce, Layout.body, Layout.overhead - 1, sealed.count - 1] {
            do {
                _ = try PacketSealer.open(Array(sealed.prefix(length)), with: bob, associatedData: [])
                Issue.record("a packet cut to \(length) bytes opened")
            } catch {
                #expect(error == .malformed || error == .tampered, "cut to \(length): \(error)")
            }
        }
        #expect(throws: PacketSealerError.malformed) {
            try PacketSealer.open(Array(sealed.prefix(Layout.overhead - 1)), with: bob, associatedData: [])
        }
    }

    @Test("two seals of the same plaintext differ in key, nonce and body")
    func freshness() throws {
        let bob = try #require(IdentityFixtures.bob)
        let plaintext = Array(repeating: UInt8(0x41), count: 64)
        let first = try PacketSealer.seal(plaintext, to: bob.publicKeys, associatedData: [])
        let second = try PacketSealer.seal(plaintext, to: bob.publicKeys, associatedData: [])
        #expect(first != second)
        #expect(first[Layout.wrappedKey..<Layout.nonce] != second[Layout.wrappedKey..<Layout.nonce])
        #expect(first[Layout.nonce..<Layout.body] != second[Layout.nonce..<Layout.body])
        #expect(first[Layout.body...] != second[Layout.body...])
        #expect(try PacketSealer.open(first, with: bob, associatedData: []) == plaintext)
        #expect(try PacketSealer.open(second, with: bob, associatedData: []) == plaintext)
    }

    @Test("no 6-byte run of the plaintext appears in the sealed output")
    func plaintextHidden() throws {
        let bob = try #require(IdentityFixtures.bob)
        let plaintext = Array("Attack at dawn; attack at dawn; ATTACK AT DAWN; 0123456789abcdef".utf8)
            + Array(repeating: 0, count: 64) + Array(repeating: 0xFF, count: 64)
        for _ in 0..<5 {
            let sealed = try PacketSealer.seal(plaintext, to: bob.publicKeys, associatedData: [])
            let windows = Set(stride(from: 0, through: plaintext.count - 6, by: 1).map { Array(plaintext[$0..<($0 + 6)]) })
            let found = stride(from: 0, through: sealed.count - 6, by: 1).filter { windows.contains(Array(sealed[$0..<($0 + 6)])) }
            #expect(found.isEmpty, "plaintext runs at offsets \(found)")
        }
    }

    @Test("sealer errors compare by kind and describe themselves without content")
    func errorShape() throws {
        let bob = try #require(IdentityFixtures.bob)
        let error = PacketSealerError.tampered.with(detail: "x")
        #expect(error == .tampered)
        #expect(error != .malformed)
        #expect(error.description.contains("tampered"))
        do {
            _ = try PacketSealer.open([1, 2, 3], with: bob, associatedData: [])
            Issue.record("three bytes opened")
        } catch {
            #expect(error == .malformed)
            #expect(error.detail != nil)
        }
    }
}
