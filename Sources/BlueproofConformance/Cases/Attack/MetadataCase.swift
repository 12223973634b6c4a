import BlueproofTransmitter
import Foundation

/// BFT/ATK/BV-04 (breaking-bridgefy-2021, "Privacy"; docs/security.md, "Metadata"): an
/// encrypted mesh packet must not tell the relay, or anyone listening to the relay's links,
/// who sent it. The subject sends one to the far end of a line, whose key it imported
/// (bridgefy-ios-sdk-readme.md, "Export and import keys"); the relay's capture is searched, in
/// every frame that carries the packet's id, for what would name the subject (`exposure`): any
/// 8 bytes of its user id or signing key, its id as text, its encryption key's fingerprint or
/// the middle of that key. The receiver and the packet id may show: routing needs them. The packet must
/// still arrive, encrypted and named as the subject's, so the sender is hidden, not dropped.
/// Judged on the relay's capture, so it runs over controllers only.
enum MetadataCase {
    static let id: CaseID = "BFT/ATK/BV-04"
    static let text: [String: TransmitterValue] = ["text": .string("blueproof sealed sender")]

    static func make() -> MeshLineCase {
        var item = MeshLineCase(id: id, role: .sender, brokenBy: [.senderInClear]) { stage, sender, relay, receiver, users in
            guard stage.context.captures.count > relay else {
                return .notApplicable("judged on the relay's capture: the case must run over controllers")
            }
            let exported = try await stage.subject.localPublicKey()
            guard let keys = try? PublicKeyBundle(base64: exported) else {
                return .fail("the subject's exported key (localPublicKey) does not read as a key bundle")
            }
            let key: String
            do { key = try await stage.nodes[receiver].localPublicKey() } catch { throw StageFailure(.tester, "the far end has no key to export: \(error)") }
            do { try await stage.subject.savePublicKey(key, forUser: users[receiver]) } catch {
                return .fail("the subject refused the far end's exported key: \(error)")
            }
            let id = try await stage.send(from: sender, dictionary: text, to: users[receiver], options: [.encrypted, .meshTransmission])
            let packet = await stage.logs[receiver].received(id, within: stage.airTimeout)
            let path = stage.context.captures[relay]
            let frames = try CaptureEvidence(path: path).transmitterFrameBytes.filter { carries(id, $0.bytes) }
            let exposing = frames.compactMap { captured in
                exposure(of: users[sender], keys: keys, in: captured.bytes).map { (captured.frame, captured.direction, $0) }
            }
            if !exposing.isEmpty {
                let findings = exposing.map { frame, direction, what in
                    Finding("\(what) in clear, frame \(direction == .received ? "arriving at" : "leaving") the relay", capture: path, frames: [frame])
                }
                return .fail("the encrypted packet \(id) names its sender to the relay: \(exposing[0].2) in clear in \(exposing.count) frame(s)", findings: findings)
            }
            guard !frames.isEmpty else {
                return .fail("the encrypted packet \(id) never appears in the relay's capture (\(packet == nil ? "nor was it delivered" : "though it was delivered"))")
            }
            guard let packet else { return .fail("the encrypted packet \(id) crossed the relay without its sender in clear but never reached its receiver") }
            guard packet.encrypted, packet.mesh, packet.sender == users[sender] else {
                return .fail("the packet \(id) arrived with encrypted \(packet.encrypted), mesh \(packet.mesh), sender \(packet.sender.shortName)")
            }
            return .pass("the relay's capture shows the encrypted packet \(id) in \(frames.count) frame(s), none with the sender's id or key; the receiver got it, named as the subject's",
                         findings: [Finding("packet \(id), sender hidden", capture: path, frames: frames.map(\.frame))])
        }
        item.judgesCaptures = true
        return item
    }

    /// Whether `bytes` is a data frame (docs/transmitter-wire.md, "data") for packet `id`: kind
    /// 4, the packet id after the flags and hops, in both the clear and the sealed layout.
    static func carries(_ id: PacketID, _ bytes: [UInt8]) -> Bool {
        let at = TransmitterFrame.headerSize + 2
        guard bytes.count >= at + 16, bytes[1] == FrameKind.data.rawValue else { return false }
        return bytes[at..<(at + 16)].elementsEqual(withUnsafeBytes(of: id.uuid) { Array($0) })
    }

    /// What of the sender's shows in `bytes`, with the offset: any 8 consecutive bytes of its user
    /// id or signing key (a prefix or a part names it as well; 8 random bytes match ciphertext
    /// once in 2^64), its id as text, its encryption key's fingerprint (the 8 bytes `PacketSealer`
    /// names a recipient by) or 32 bytes from the middle of that key (its modulus: the DER's
    /// start is alike for every RSA key).
    static func exposure(of sender: UserID, keys: PublicKeyBundle, in bytes: [UInt8]) -> String? {
        let der = keys.encryptionKeyDER
        var needles: [(String, [UInt8])] = []
        for (name, whole) in [("the sender's user id", sender.bytes), ("the sender's signing key", keys.signingKey)] where whole.count >= 8 {
            needles += (0...(whole.count - 8)).map { ("\(name) (bytes \($0)..<\($0 + 8) of it)", Array(whole[$0..<($0 + 8)])) }
        }
        needles += [("the sender's user id as text", Array(sender.description.lowercased().utf8)),
                    ("the sender's user id as text", Array(sender.description.uppercased().utf8)),
                    ("the sender's encryption key fingerprint", keys.encryptionKeyFingerprint)]
        if der.count >= 64 { needles.append(("the sender's encryption key", Array(der[(der.count / 2 - 16)..<(der.count / 2 + 16)]))) }
        for (name, needle) in needles where !needle.isEmpty {
            if let at = offset(of: needle, in: bytes) { return "\(name) at byte \(at)" }
        }
        return nil
    }

    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
