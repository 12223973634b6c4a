import Crypto
import Foundation

/// Reception and relaying ("5. Receive Data", "Mesh", "Broadcast messages").
extension Transmitter {
    /// A data frame from neighbour `peer`: sender checked, then routed by the `MeshRouter`. A
    /// sealed frame names no sender a relay could check: a relay routes it unchecked, its
    /// recipient opens and checks it first, so a forgery under a real packet's id cannot mark
    /// that id seen here and have the genuine packet dropped as a duplicate.
    func dataArrived(_ arrived: DataFrame, from peer: UserID) async {
        statistics.dataFramesIn += 1
        guard let me = identity?.userID, router != nil else { return }
        var frame = arrived
        if arrived.isSealed, arrived.receiver == me {
            switch openSealed(arrived) {
            case .success(let opened):
                frame = opened
            case .failure(let error):
                if defects.contains(.openFailureAnswered), error.kind == .tampered {
                    await requestSecureConnection(peer)
                }
                if defects.contains(.failedOpeningMarksSeen) {
                    await perform(router!.receive(arrived, from: peer, neighbours: connected.sorted(), now: now))
                }
                return
            }
        }
        let unchecked = frame.isSealed || (arrived.isSealed && defects.contains(.sealedSenderUnchecked))
        guard unchecked || senderIsAuthentic(frame) else {
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
        guard let sender = frame.sender else { return false }
        if defects.contains(.keyConflictBeforeSignature), keyOnRecordDiffers(frame, sender) { return false }
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: frame.senderKey),
              key.isValidSignature(frame.signature, for: frame.signedBytes) else {
            TransmitterLog.log(.error, "packet \(frame.packetID) from \(sender): bad signature, dropped", user: me)
            return false
        }
        if keyOnRecordDiffers(frame, sender) { return false }
        guard defects.contains(.senderNotBoundToKey) || sender.isDerived(from: frame.senderKey) else {
            TransmitterLog.log(.error, "packet \(frame.packetID) claims sender \(sender), not the id of its signing key: dropped", user: me)
            return false
        }
        return true
    }

    /// Whether a key other than the frame's is on record for `sender`, the sender it names;
    /// reports it as `.keyConflict` when so. A session that cannot be read drops the frame too
    /// (fails closed), with the error logged.
    private func keyOnRecordDiffers(_ frame: DataFrame, _ sender: UserID) -> Bool {
        guard let onRecord = keyOnRecord(for: sender, refused: "packet \(frame.packetID) dropped") else { return true }
        guard let known = onRecord, known.signingKey != frame.senderKey, !defects.contains(.keyReplacedSilently) else { return false }
        TransmitterLog.log(.error, "packet \(frame.packetID) claims sender \(sender) with another key: dropped", user: identity?.userID)
        emit(.keyConflict(sender))
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

    /// `frame` opened with this user's keys, or why not (counted and logged; the caller sends
    /// nothing in reply, whatever failed: docs/security.md, "Decryption oracle").
    private func openSealed(_ frame: DataFrame) -> Result<DataFrame, PacketSealerError> {
        guard let identity else { return .failure(.wrongRecipient.with(detail: "not started")) }
        do throws(PacketSealerError) {
            return .success(try frame.opened(with: identity, checkingTag: !defects.contains(.tagUnchecked)))
        } catch {
            statistics.rejected += 1
            TransmitterLog.log(.error, "packet \(frame.packetID) could not be opened: \(error.kind.rawValue)", user: identity.userID)
            return .failure(error)
        }
    }

    /// Decodes and size-checks a packet for this user (opened and checked in `dataArrived`; one
    /// still sealed is a relay's, under `relayDeliversEverything`, and does not open), then
    /// reports `.received`.
    func deliverLocally(_ frame: DataFrame) {
        guard let identity else { return }
        let me = identity.userID
        if frame.isSealed {  // for another user: it does not open (counted, logged)
            _ = openSealed(frame)
            return
        }
        guard let sender = frame.sender else { return }
        let encrypted = frame.flags.contains(.encrypted)
        let payload: TransmitterPayload
        do throws(FrameError) {
            payload = try TransmitterPayload.decode(frame.payload)
        } catch {
            statistics.rejected += 1
            TransmitterLog.log(.error, "packet \(frame.packetID) payload undecodable: \(error)", user: me)
            if defects.contains(.nestedPayloadStopsReceiver), "\(error)".contains("maxNestingDepth") { receiveHalted = true }
            return
        }
        let limits = configuration.limits
        let kind = link.kind(to: sender)  // the sender's carrier; a per-peer link (DualLink) knows it
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
        TransmitterLog.meshTrace(packet: frame.packetID, hops: frame.hopsRemaining, peer: sender, action: "deliver", user: me)
        let broadcast = frame.flags.contains(.broadcast) && !defects.contains(.broadcastFlagDropped)
        emit(.received(ReceivedPacket(
            packetID: frame.packetID, sender: sender, dictionary: payload.dictionary, data: payload.binary,
            broadcast: broadcast, mesh: frame.flags.contains(.mesh), encrypted: encrypted)))
    }
}
