import BlueproofAsync
import BlueproofTransmitter
import Foundation

/// A tester node as the attacker of a BFT/ATK case (docs/security.md, "The attacker"): it puts
/// frames of its own making, in the wire format of docs/transmitter-wire.md, on its link to the
/// subject (`Transmitter.sendRawFrame`), over the air on btvirt/Rootcanal or on the simulated
/// link. Forgeries are signed with keys of the attacker's own (`keys`), never the subject's.
///
/// Cases judge the subject's reaction through `TransmitterControl` only. Frames on one link
/// arrive in order, so an honest packet the same node sends after the hostile frames
/// (`honestPacket`) tells when the subject has dealt with them, and that it still delivers.
struct RawFrameAttacker: Sendable {
    let stage: TransmitterStage
    let index: Int
    let node: Transmitter
    /// The attacker's own keys (a fresh identity with the id its signing key derives).
    let keys: TransmitterIdentity

    /// Node `index` of `stage` as the attacker; `StageFailure(.tester)` unless it is one of the
    /// runner's reference transmitters.
    init(_ stage: TransmitterStage, node index: Int) throws {
        node = try stage.referenceTester(index, else: "it cannot act as the attacker")
        self.stage = stage
        self.index = index
        keys = try Self.freshKeys()
    }

    /// Keys of another user, made for the case (a victim the subject never met, or the key a
    /// relay substitutes).
    static func freshKeys() throws -> TransmitterIdentity { try ReferenceTransmitterProvider.simulatedIdentities().make() }

    /// Puts `bytes` on the link to `peer` as one frame.
    func send(_ bytes: [UInt8], to peer: UserID, what: String) async throws {
        do {
            try await node.sendRawFrame(bytes, to: peer)
        } catch {
            throw StageFailure(.tester, "the attacker (node \(index)) could not send \(what): \(error)")
        }
        stage.context.log.note("attacker (node \(index)) sent \(what), \(bytes.count) bytes")
    }

    /// Puts each of `frames` on the link to `peer` in turn, logging once.
    func send(_ frames: [[UInt8]], to peer: UserID, what: String) async throws {
        for (index, bytes) in frames.enumerated() {
            do {
                try await node.sendRawFrame(bytes, to: peer)
            } catch {
                throw StageFailure(.tester, "the attacker (node \(self.index)) could not send frame \(index + 1) of \(what): \(error)")
            }
        }
        stage.context.log.note("attacker (node \(index)) sent \(what): \(frames.count) frames, \(frames.reduce(0) { $0 + $1.count }) bytes")
    }

    /// A mesh data frame for `receiver` with no hops left (the subject delivers it and relays it
    /// no further), claiming `sender`, carrying `signer`'s key and, unless `validSignature` is
    /// false (then 64 zero bytes), its signature. `payload`: the payload encoding's bytes. With
    /// `sealedTo` (the receiver's exported keys) the frame is encrypted and sealed, sender and
    /// signature inside (docs/transmitter-wire.md, "data").
    func dataFrame(claiming sender: UserID, to receiver: UserID, signer: TransmitterIdentity, validSignature: Bool = true,
                   payload: [UInt8], sealedTo: PublicKeyBundle? = nil) throws -> DataFrame {
        let frame = DataFrame(
            flags: sealedTo == nil ? [.mesh, .hasDictionary] : [.mesh, .encrypted, .hasDictionary], hopsRemaining: 0,
            packetID: PacketID(), sender: sender, receiver: receiver,
            expiry: DataFrame.milliseconds(Date().addingTimeInterval(Self.expiry)), senderKey: signer.publicKeys.signingKey,
            payload: payload, signature: [UInt8](repeating: 0, count: DataFrame.signatureSize))
        do {
            let signed = validSignature ? try frame.signed(by: signer) : frame
            return try sealedTo.map { try signed.sealed(to: $0) } ?? signed
        } catch {
            throw StageFailure(.tester, "the attacker could not sign or seal its frame: \(error)")
        }
    }

    /// The payload encoding of `dictionary` (docs/transmitter.md, "Payload encoding").
    static func payload(_ dictionary: [String: TransmitterValue]) throws -> [UInt8] {
        do {
            return try TransmitterPayload(dictionary: dictionary).encoded()
        } catch {
            throw StageFailure(.tester, "the attacker could not encode its payload: \(error)")
        }
    }

    /// The payload encoding around dictionary JSON taken as it is (no check of its depth or form).
    static func payload(json: [UInt8]) -> [UInt8] {
        [TransmitterPayload.formatVersion, TransmitterPayload.flagDictionary] + bigEndian(UInt32(clamping: json.count)) + json
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// After the hostile frames: this node sends an ordinary direct packet to `subject`, which
    /// must deliver it within `timeout` (the air timeout unless given). Returns nil when it did,
    /// or why the case fails.
    func honestPacket(to subject: UserID, within timeout: Duration? = nil) async throws -> String? {
        let timeout = timeout ?? stage.airTimeout
        let id = try await stage.send(from: index, dictionary: Self.honest, to: subject, options: [.directTransmission])
        let clock = ContinuousClock()
        let start = clock.now
        guard await stage.logs[0].received(id, within: timeout) != nil else {
            return "the subject did not deliver the honest packet \(id) sent after the attack within \(timeout)"
        }
        stage.context.log.note("the honest packet after the attack arrived in \(clock.now - start)")
        return nil
    }

    /// From now on this node withholds key requests (`Transmitter.interceptKeyRequests`): each is
    /// dropped unread and its sender yielded on the stream returned, as a relay between the
    /// subject and this user would keep them from it. ``answerKeyRequests()`` ends it.
    func withholdKeyRequests() async -> AsyncStream<UserID> { await node.interceptKeyRequests() }

    /// This node answers key requests again.
    func answerKeyRequests() async { await node.answerKeyRequests() }

    /// Waits until a keyRequest from `subject` has reached this node and been withheld.
    func withheldRequest(from subject: UserID, on requests: AsyncStream<UserID>) async throws {
        do {
            try await withTimeout(stage.airTimeout, what: "the subject's keyRequest at the relay (node \(index))") {
                for await peer in requests where peer == subject { return }
                throw CancellationError()
            }
        } catch let timeout as TimeoutError {
            throw StageFailure(.secureConnection, "the subject started a secure connection but its keyRequest never reached the tester: \(timeout)")
        }
        stage.context.log.note("the relay (node \(index)) withheld the subject's keyRequest")
    }

    /// The frames this node has taken from `peer` so far, by kind name ("undecodable" for those
    /// that did not decode).
    func framesHeard(from peer: UserID) async -> [String: Int] {
        let heard = await node.currentStatistics().framesIn[peer] ?? [:]
        return heard.reduce(into: [:]) { $0[$1.key.map { "\($0)" } ?? "undecodable"] = $1.value }
    }

    /// Whether the subject reported `id` delivered.
    func delivered(_ id: PacketID) -> Bool {
        stage.logs[0].contains(where: { if case .received(let packet) = $0 { packet.packetID == id } else { false } })
    }

    static let honest: [String: TransmitterValue] = ["text": .string("blueproof honest packet")]
    /// Forged frames' time to live: long enough for any case.
    static let expiry: TimeInterval = 300
}
