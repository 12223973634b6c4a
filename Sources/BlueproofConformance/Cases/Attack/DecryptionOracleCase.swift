import BlueproofTransmitter
import Foundation

/// The decryption oracle (breaking-bridgefy-2021, "Confidentiality"; docs/security.md,
/// "Decryption oracle"). There, whether the receiver acknowledged an altered ciphertext told the
/// attacker whether it decrypted, and enough such answers recovered the plaintext. Here the
/// attacker alters a frame sealed to the subject in each layer of its sealing (fingerprint,
/// wrapped key, nonce, sealed sender, sealed payload, tag, authenticated header, length) and
/// sends the copies, then an honest packet: once that is delivered, no copy may have been. Then
/// the genuine frame, under the same packet id, must be delivered once (a copy that does not open
/// may not mark its id seen), and the subject may have put no frame on the attacker's link in
/// reply to any copy.
enum DecryptionOracleCase {
    static let secret: [String: TransmitterValue] = ["text": .string("blueproof sealed secret")]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/ATK/BI-21", nodes: 2, brokenBy: [.openFailureAnswered, .failedOpeningMarksSeen, .tagUnchecked]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let exported = try await stage.subject.localPublicKey()
                guard let key = try? PublicKeyBundle(base64: exported) else {
                    return .fail("the subject's exported key (localPublicKey) does not read as a key bundle")
                }
                let payload = try RawFrameAttacker.payload(secret)
                // First a sealed frame in the attacker's own name, untouched: whatever the subject does
                // on meeting a new sender is done before the count starts.
                let first = try attacker.dataFrame(claiming: attacker.keys.userID, to: subject, signer: attacker.keys, payload: payload, sealedTo: key)
                try await attacker.send(TransmitterFrame.data(first).encoded(), to: subject, what: "a sealed data frame in its own name")
                guard await stage.logs[0].received(first.packetID, within: stage.airTimeout) != nil else {
                    return .fail("a sealed data frame the attacker signed in its own name was not delivered within \(stage.airTimeout): the altered copies' refusal would show nothing")
                }
                if let failed = try await settle(stage, tester: tester) { return .fail(failed) }
                let before = await attacker.framesHeard(from: subject)

                let genuine = try attacker.dataFrame(claiming: attacker.keys.userID, to: subject, signer: attacker.keys, payload: payload, sealedTo: key)
                let altered = try alterations(of: genuine)
                let listed = altered.map(\.what).joined(separator: "; ")
                try await attacker.send(altered.map { TransmitterFrame.data($0.frame).encoded() }, to: subject,
                                        what: "\(altered.count) altered copies of a sealed data frame")
                // Frames on one link are dealt with in order: once the honest packet is delivered, every copy has been.
                if let stalled = try await attacker.honestPacket(to: subject) { return .fail(stalled) }
                if let copy = copies(of: genuine.packetID, in: stage).first {
                    let content = copy.dictionary == secret ? "the content sealed" : "content the sender did not seal"
                    return .fail("an altered copy of sealed frame \(genuine.packetID) was delivered, with \(content); the copies: \(listed)")
                }
                try await attacker.send(TransmitterFrame.data(genuine).encoded(), to: subject, what: "the genuine sealed frame")
                guard await stage.logs[0].received(genuine.packetID, within: stage.airTimeout) != nil else {
                    return .fail("the genuine sealed frame \(genuine.packetID), sent after \(altered.count) altered copies of it under its packet id, was not delivered within \(stage.airTimeout) (the honest packet between them was): a copy that did not open marked the id seen")
                }
                if let failed = try await settle(stage, tester: tester) { return .fail(failed) }
                let delivered = copies(of: genuine.packetID, in: stage)
                if delivered.count > 1 || delivered.contains(where: { $0.dictionary != secret }) {
                    return .fail("packet \(genuine.packetID) was delivered \(delivered.count) times, \(delivered.filter { $0.dictionary != secret }.count) with content the sender did not seal")
                }
                // One data frame is the subject's own settling packet. Hellos only come with a link
                // made again (named in the verdict, not counted).
                var replies = difference(await attacker.framesHeard(from: subject), before, less: ["\(FrameKind.data)": 1])
                let hellos = replies.removeValue(forKey: "\(FrameKind.hello)")
                if !replies.isEmpty {
                    let named = replies.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
                    return .fail("after \(altered.count) altered copies of a sealed frame (\(listed)), the subject sent the attacker \(named) besides its own packet: a reaction to a frame that does not open tells an attacker which ones did, an oracle")
                }
                let relinked = hellos.map { "; \($0) hello frame(s) came too, not counted (a link made again)" } ?? ""
                return .pass("\(altered.count) altered copies of a frame sealed to the subject (\(listed)) were not delivered and drew no frame in reply; the genuine frame, sent after them under the same packet id, was delivered once\(relinked)")
            },
        ]
    }

    /// The subject sends the attacker a direct packet, which must arrive: frames on one link keep
    /// their order, so whatever the subject sent the attacker before has arrived too. Nil when it
    /// did, or why the case fails.
    static func settle(_ stage: TransmitterStage, tester: UserID) async throws -> String? {
        let id: PacketID
        do {
            id = try await stage.send(from: 0, dictionary: RawFrameAttacker.honest, to: tester, options: [.directTransmission])
        } catch {
            return "the subject refused a direct packet to the attacker, a connected peer: \(error)"
        }
        guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
            return "the subject's direct packet \(id) to the attacker did not arrive within \(stage.airTimeout)"
        }
        return nil
    }

    /// Copies of sealed `frame`, each altered in one place of the sealing layout
    /// (docs/transmitter.md, "Sealed packet"): `version · fingerprint(8) · wrapped length(2) ·
    /// wrapped key · nonce(12) · body · tag(16)`, and the authenticated header.
    static func alterations(of frame: DataFrame) throws -> [(what: String, frame: DataFrame)] {
        let sealed = frame.payload
        guard sealed.count > 11 else { throw StageFailure(.tester, "the attacker's sealed payload has \(sealed.count) bytes, too few to alter") }
        let wrapped = Int(sealed[9]) << 8 | Int(sealed[10])
        let body = 11 + wrapped + 12
        // The body is AES-GCM of `sender id (16) ‖ signing key (32) ‖ signature (64) ‖ payload
        // encoding` (docs/transmitter-wire.md, "data"), byte for byte: a flip at body + i flips
        // plaintext byte i, which a subject that skips the tag would open.
        let payloadAt = body + 16 + 32 + 64
        guard sealed.count > payloadAt + 16 + 1 else {
            throw StageFailure(.tester, "the attacker's sealed payload has \(sealed.count) bytes, too few for a \(wrapped)-byte wrapped key, nonce, sealed sender, payload and tag")
        }
        func flipped(_ what: String, at index: Int) -> (String, DataFrame) {
            var copy = frame
            copy.payload[index] ^= 0x01
            return (what, copy)
        }
        var header = frame
        header.expiry ^= 1
        var cut = frame
        cut.payload.removeLast(8)
        return [
            flipped("a bit of the recipient fingerprint", at: 1),
            flipped("a bit of the wrapped key", at: 11 + wrapped / 2),
            flipped("a bit of the nonce", at: body - 6),
            flipped("a bit of the sealed sender id", at: body + 4),
            flipped("a bit of the sealed payload", at: payloadAt + (sealed.count - 16 - payloadAt) / 2),
            flipped("a bit of the tag", at: sealed.count - 1),
            ("the expiry in the authenticated header", header),
            ("cut 8 bytes short", cut),
        ]
    }

    /// The subject's deliveries of packet `id`.
    static func copies(of id: PacketID, in stage: TransmitterStage) -> [ReceivedPacket] {
        stage.logs[0].events.compactMap { if case .received(let packet) = $0, packet.packetID == id { packet } else { nil } }
    }

    /// What `after` counts beyond `before` and `expected`, by kind; kinds with nothing extra left out.
    static func difference(_ after: [String: Int], _ before: [String: Int], less expected: [String: Int]) -> [String: Int] {
        after.reduce(into: [:]) { extra, entry in
            let count = entry.value - before[entry.key, default: 0] - expected[entry.key, default: 0]
            if count > 0 { extra[entry.key] = count }
        }
    }
}
