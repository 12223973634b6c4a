import Crypto
import Foundation

/// Reception and relaying ("5. Receive Data", "Mesh", "Broadcast messages").
extension Transmitter {
    /// A data frame from neighbour `peer`: sender checked, then routed by the `MeshRouter`.
    func dataArrived(_ frame: DataFrame, from peer: UserID) async {
        statistics.dataFramesIn += 1
        guard let me = identity?.userID, router != nil else { return }
        guard senderIsAuthentic(frame) else {
            statistics.rejected += 1
            return
        }
        if defects.contains(.relayDropsAtLimit), frame.receiver != me, frame.flags.contains(.mesh),
           let size = (try? TransmitterPayload.decode(frame.payload))?.dictionarySize,
           size >= configuration.limits.meshDictionary(on: link.kind) {
            return
        }
        // Mutated in place (a copy would duplicate the cache's storage on every frame).
        let actions = router!.receive(frame, from: peer, neighbours: connected.sorted(), now: now)
        TransmitterLog.meshTrace(packet: frame.packetID, hops: frame.hopsRemaining, peer: peer, action: "received", user: me)
        await perform(actions)
    }

    /// In this order (docs/transmitter-wire.md, "data"; docs/security.md, "Impersonation by data
    /// frame"): the signature must verify with the key the frame carries (else dropped, nothing
    /// reported: an unsigned frame proves nothing, so it may not raise `keyConflict`); that key
    /// must be the one on record for the sender, if any (else `.keyConflict` and dropped); and
    /// the sender id must be the one the key derives (`UserID.derived(from:)`), so a frame claims
    /// only its signer's id, met before or not.
    func senderIsAuthentic(_ frame: DataFrame) -> Bool {
        let me = identity?.userID
        if defects.contains(.keyConflictBeforeSignature), keyOnRecordDiffers(frame) { return false }
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: frame.senderKey),
              key.isValidSignature(frame.signature, for: frame.signedBytes) else {
            TransmitterLog.log(.error, "packet \(frame.packetID) from \(frame.sender): bad signature, dropped", user: me)
            return false
        }
        if keyOnRecordDiffers(frame) { return false }
        guard defects.contains(.senderNotBoundToKey) || frame.sender.isDerived(from: frame.senderKey) else {
            TransmitterLog.log(.error, "packet \(frame.packetID) claims sender \(frame.sender), not the id of its signing key: dropped", user: me)
            return false
        }
        return true
    }

    /// Whether a key other than the frame's is on record for its sender; reports it as
    /// `.keyConflict` when so.
    private func keyOnRecordDiffers(_ frame: DataFrame) -> Bool {
        guard let known = (try? session.load())?.knownKeys[frame.sender], known.signingKey != frame.senderKey,
              !defects.contains(.keyReplacedSilently) else { return false }
        TransmitterLog.log(.error, "packet \(frame.packetID) claims sender \(frame.sender) with another key: dropped", user: identity?.userID)
        emit(.keyConflict(frame.sender))
        return true
    }

    /// Carries out what the router decided.
    func perform(_ actions: [MeshAction]) async {
        let me = identity?.userID
        for action in actions {
            switch action {
            case .deliver(let frame):
                deliverLocally(frame)
            case .forward(let frame, let peer):
                do throws(LinkError) {
                    try await link.send(TransmitterFrame.data(frame).encoded(), to: peer)
                    statistics.forwarded += 1
                    TransmitterLog.meshTrace(packet: frame.packetID, hops: frame.hopsRemaining, peer: peer, action: "forward", user: me)
                } catch {
                    TransmitterLog.meshTrace(packet: frame.packetID, hops: frame.hopsRemaining, peer: peer, action: "forward-failed", user: me)
                }
            case .discarded(let id, let reason):
                TransmitterLog.meshTrace(packet: id, hops: 0, peer: nil, action: "discarded(\(reason))", user: me)
                emit(.discarded(id, reason: reason))
            case .dropped(let id, let reason):
                if reason == MeshDropReason.duplicate { statistics.duplicates += 1 }
                TransmitterLog.meshTrace(packet: id, hops: 0, peer: nil, action: "dropped(\(reason))", user: me)
            }
        }
    }

    /// Opens, decodes and size-checks a packet for this user, then reports `.received`.
    func deliverLocally(_ frame: DataFrame) {
        guard let identity else { return }
        let me = identity.userID
        var plain = frame.payload
        let encrypted = frame.flags.contains(.encrypted)
        if encrypted {
            do throws(PacketSealerError) {
                plain = try PacketSealer.open(frame.payload, with: identity, associatedData: frame.associatedData)
            } catch {
                statistics.rejected += 1
                TransmitterLog.log(.error, "packet \(frame.packetID) could not be opened: \(error.kind.rawValue)", user: me)
                return
            }
        }
        let payload: TransmitterPayload
        do throws(FrameError) {
            payload = try TransmitterPayload.decode(plain)
        } catch {
            statistics.rejected += 1
            TransmitterLog.log(.error, "packet \(frame.packetID) payload undecodable: \(error)", user: me)
            if defects.contains(.nestedPayloadStopsReceiver), "\(error)".contains("maxNestingDepth") { receiveHalted = true }
            return
        }
        let limits = configuration.limits
        let kind = link.kind(to: frame.sender)  // the sender's carrier; a per-peer link (DualLink) knows it
        if frame.flags.contains(.mesh), let size = payload.dictionarySize, size > limits.meshDictionary(on: kind) {
            emit(.rejectedBySize(frame.packetID, size: size, limit: limits.meshDictionary(on: kind)))
            return
        }
        if let size = payload.binarySize, let limit = limits.binary(on: kind), size > limit {
            emit(.rejectedBySize(frame.packetID, size: size, limit: limit))
            return
        }
        if let size = payload.dictionarySize, !frame.flags.contains(.mesh), let limit = limits.dictionary(on: kind), size > limit {
            emit(.rejectedBySize(frame.packetID, size: size, limit: limit))
            return
        }
        guard admitForDelivery(frame) else { return }
        statistics.delivered += 1
        if defects.contains(.traceLeaksPayload) {
            TransmitterLog.log(.trace, "packet \(frame.packetID) content \(String(decoding: payload.dictionaryJSON ?? [], as: UTF8.self))", user: me)
        }
        TransmitterLog.meshTrace(packet: frame.packetID, hops: frame.hopsRemaining, peer: frame.sender, action: "deliver", user: me)
        let broadcast = frame.flags.contains(.broadcast) && !defects.contains(.broadcastFlagDropped)
        emit(.received(ReceivedPacket(
            packetID: frame.packetID, sender: frame.sender, dictionary: payload.dictionary, data: payload.binary,
            broadcast: broadcast, mesh: frame.flags.contains(.mesh), encrypted: encrypted)))
    }
}
