/// The hello (docs/transmitter-wire.md "hello", docs/security.md "Hello impersonation"): a peer
/// the link names is connected only once it has proved that id with the key on record for it.
///
/// Each side sends its challenge when the link connects; each answers the peer's challenge with
/// a signed hello. A proof that does not verify, by a key that does not derive the claimed id,
/// or by a key other than the one on record for it ("Secure connections": keys exchanged or saved; reported as `keyConflict`
/// like a key exchange with that key), ends the connection.
extension Transmitter {
    /// Sends this side's challenge to a newly linked peer.
    func challenge(_ peer: UserID) async {
        guard let identity else { return }
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<HelloFrame.nonceSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        helloChallenges[peer] = nonce
        let hello = HelloFrame(user: identity.userID, displayName: configuration.displayName,
                               deviceType: configuration.deviceType, nonce: nonce)
        try? await link.send(TransmitterFrame.hello(hello).encoded(), to: peer)
        if defects.contains(.unsignedHello) { await admit(peer) }
    }

    func helloArrived(_ hello: HelloFrame, from peer: UserID) async {
        guard hello.user == peer, let identity else { return }
        guard let proof = hello.proof else {
            await answer(hello.nonce, of: peer, as: identity)
            return
        }
        if defects.contains(.unsignedHello) {
            hellos[peer] = hello
            return
        }
        guard let challenge = helloChallenges[peer] else { return }
        let signed = hello.signedBytes(receiver: identity.userID, answering: challenge, signingKey: proof.signingKey)
        // The key on record decides: a session that cannot be read refuses the peer (fails closed).
        guard let known = keyOnRecord(for: peer, refused: "hello from \(peer) refused, connection dropped") else {
            helloChallenges[peer] = nil
            await link.disconnect(from: peer)
            return
        }
        let verified = proof.verifies(signed)
        // The id must be the one the key derives (docs/transmitter-wire.md "User ids"), and the key on record.
        guard verified, peer.isDerived(from: proof.signingKey), known.map({ $0.signingKey == proof.signingKey }) ?? true else {
            helloChallenges[peer] = nil
            statistics.rejected += 1
            TransmitterLog.log(.info, "hello from \(peer) does not prove that id; connection refused", user: identity.userID)
            // A good signature by a key other than the one on record: the key exchange's report.
            if verified { emit(.keyConflict(peer)) }
            await link.disconnect(from: peer)
            return
        }
        helloChallenges[peer] = nil
        hellos[peer] = hello
        await admit(peer)
    }

    /// Answers a peer's challenge with this side's signed hello.
    private func answer(_ challenge: [UInt8], of peer: UserID, as identity: TransmitterIdentity) async {
        let nonce = helloChallenges[peer] ?? [UInt8](repeating: 0, count: HelloFrame.nonceSize)
        guard let hello = try? HelloFrame.answer(by: identity, to: peer, challenge: challenge, displayName: configuration.displayName,
                                                 deviceType: configuration.deviceType, nonce: nonce) else { return }
        try? await link.send(TransmitterFrame.hello(hello).encoded(), to: peer)
    }
}
