import Foundation

/// Secure connections and their expiry ("Secure connections", "Export and import keys").
///
/// A secure connection is a key exchange (`keyRequest`/`keyResponse`). Its last activity is kept
/// in the session, so expiry survives restarts and is shared by every instance on the store.
/// Activity is the peer being in range, or encrypted content sent to it while away. Expiry is
/// checked lazily against the time source: after it, encrypted sends fail with
/// `.noSecureConnection` until a new secure connection. A key imported with `savePublicKey` for
/// a user never securely connected allows encryption with no expiry.
extension Transmitter {
    public func establishSecureConnection(with user: UserID) async throws(TransmitterError) {
        guard mode != nil else { throw .notStarted }
        guard connected.contains(user) else { throw TransmitterError.directReceiverNotInRange.with(detail: "\(user) is not connected") }
        await requestSecureConnection(user)
    }

    public func secureConnectionExpirationLimit() -> Int {
        (try? session.load())?.secureConnectionExpirationLimit ?? SessionRecord.defaultSecureConnectionExpirationLimit
    }

    public func setSecureConnectionExpirationLimit(_ seconds: Int) throws(TransmitterError) {
        guard seconds > 0 else { throw TransmitterError.sessionError.with(detail: "expiration limit must be positive, got \(seconds)") }
        _ = try session.update { $0.secureConnectionExpirationLimit = seconds }
    }

    public func answerSecureConnections(_ answer: Bool) -> Bool {
        secureAnswer = answer
        return true
    }

    /// Whether encrypted content may be sent to `user` now. A session that cannot be read is its
    /// `.sessionError`, never taken for "no secure connection".
    func canEncrypt(to user: UserID) throws(TransmitterError) -> Bool {
        guard let record = try session.load(), record.knownKeys[user] != nil else { return false }
        guard record.secureConnections[user] != nil else { return true }
        return secureConnectionIsLive(user, record: record)
    }

    /// A secure connection exists with `user` and has not expired.
    func secureConnectionIsLive(_ user: UserID, record: SessionRecord? = nil) -> Bool {
        guard let record = record ?? (try? session.load()), let last = record.secureConnections[user] else { return false }
        if liveSecure.contains(user) && !defects.contains(.expiryNotRefreshed) { return true }
        var limit = Double(record.secureConnectionExpirationLimit)
        if defects.contains(.expiryEarly) { limit /= 2 }
        if defects.contains(.expiryLate) { limit *= 2 }
        return now.timeIntervalSince(last) <= limit
    }

    /// Records activity with `user`, if its secure connection is still live: liveness is judged
    /// on the record read under the session's lock, in the one read-modify-write that stores the
    /// new time (and never on a session destroyed meanwhile, which `update` would make anew). A
    /// session that cannot be read or written is logged as an error; the expiry then runs on from
    /// the last activity stored.
    func refreshActivity(_ user: UserID) {
        guard !defects.contains(.expiryNotRefreshed) else { return }
        let time = now
        do throws(TransmitterError) {
            guard try session.load()?.secureConnections[user] != nil else { return }
            _ = try session.update { record in
                guard secureConnectionIsLive(user, record: record) else { return }
                record.secureConnections[user] = time
            }
        } catch {
            TransmitterLog.log(.error, "activity with \(user) not recorded: \(error)", user: identity?.userID)
        }
    }

    func requestSecureConnection(_ peer: UserID) async {
        guard let frame = keyExchange(.keyRequest) else { return }
        pendingHandshakes.insert(peer)
        try? await link.send(TransmitterFrame.keyRequest(frame).encoded(), to: peer)
        if defects.contains(.secureWithoutResponse) { secured(peer) }
    }

    func keyRequestArrived(_ request: KeyExchangeFrame, from peer: UserID) async {
        if let keyRequestInterceptor {
            keyRequestInterceptor.yield(peer)
            return
        }
        guard acceptKey(request, kind: .keyRequest, from: peer), let response = keyExchange(.keyResponse) else { return }
        try? await link.send(TransmitterFrame.keyResponse(response).encoded(), to: peer)
        if !pendingHandshakes.contains(peer) { secured(peer) }
    }

    func keyResponseArrived(_ response: KeyExchangeFrame, from peer: UserID) {
        guard pendingHandshakes.contains(peer), acceptKey(response, kind: .keyResponse, from: peer) else { return }
        pendingHandshakes.remove(peer)
        secured(peer)
    }

    private func secured(_ peer: UserID) {
        if connected.contains(peer) { liveSecure.insert(peer) }
        TransmitterLog.log(.info, "secure connection with \(peer)", user: identity?.userID)
        emit(.secureConnection(peer))
    }

    /// Our keys, signed, for a key exchange frame.
    private func keyExchange(_ kind: FrameKind) -> KeyExchangeFrame? {
        guard let identity else { return nil }
        return try? KeyExchangeFrame.signed(kind, naming: identity.userID, by: identity)
    }

    /// Checks a peer's key exchange frame and records its key and the secure connection. The
    /// signature must verify and the key derive the peer's id (`UserID.derived(from:)`); a key
    /// that differs from the one on record is refused (`.keyConflict`), never replaced silently.
    private func acceptKey(_ frame: KeyExchangeFrame, kind: FrameKind, from peer: UserID) -> Bool {
        guard frame.user == peer, let bundle = try? PublicKeyBundle(base64: frame.publicKey),
              PacketSealer.verify(signature: frame.signature, of: KeyExchangeFrame.signedBytes(kind: kind, user: frame.user, publicKey: frame.publicKey), by: bundle) else {
            statistics.rejected += 1
            return false
        }
        // The key must be the peer's own: one that derives its id (docs/security.md, "Key
        // exchange man in the middle"); a relay's substitute is refused before anything is stored.
        let unbound = defects.contains(.keyNotBoundToUser) || (kind == .keyResponse && defects.contains(.responseKeyNotBoundToUser))
        guard unbound || peer.isDerived(from: bundle.signingKey) else {
            statistics.rejected += 1
            TransmitterLog.log(.error, "key exchange with \(peer) refused: the key is not the one its id derives from", user: identity?.userID)
            pendingHandshakes.remove(peer)
            return false
        }
        let replace = defects.contains(.keyReplacedSilently)
        let time = now
        do throws(TransmitterError) {
            _ = try session.update { (record: inout SessionRecord) throws(TransmitterError) in
                if let known = record.knownKeys[peer], known != bundle, !replace { throw .publicKeyConflict }
                record.knownKeys[peer] = bundle
                record.secureConnections[peer] = time
            }
        } catch {
            TransmitterLog.log(.error, "key exchange with \(peer) refused: \(error.name)", user: identity?.userID)
            if error == .publicKeyConflict { emit(.keyConflict(peer)) }
            pendingHandshakes.remove(peer)
            return false
        }
        return true
    }
}
