/// The attacker's hook (issue 15; docs/security.md, "The attacker"): a tester node of the
/// conformance runner puts bytes of its choosing on its link, as one frame, where an attacker's
/// radio would. No SDK call matches it; the runner uses it on its own testers only, never on
/// the implementation under test.
extension Transmitter {
    /// Sends `bytes` unchecked, as one whole frame, to connected peer `peer`.
    /// `LinkError.peerUnreachable` unless started and connected to it; the link's error otherwise.
    public func sendRawFrame(_ bytes: [UInt8], to peer: UserID) async throws(LinkError) {
        guard mode != nil, connected.contains(peer) else {
            throw LinkError(.peerUnreachable, "\(peer) is not connected to this node")
        }
        try await link.send(bytes, to: peer)
    }

    /// A relay withholding key exchanges (BFT/ATK/BI-18, BI-19): from now on each keyRequest is
    /// dropped unread, neither stored nor answered, as if it never reached this user, and the
    /// requesting peer yielded on the stream returned, until ``answerKeyRequests()`` (or the
    /// next call) finishes it.
    public func interceptKeyRequests() -> AsyncStream<UserID> {
        let (stream, continuation) = AsyncStream<UserID>.makeStream()
        keyRequestInterceptor?.finish()
        keyRequestInterceptor = continuation
        return stream
    }

    /// Key requests are answered again; the interception stream finishes.
    public func answerKeyRequests() {
        keyRequestInterceptor?.finish()
        keyRequestInterceptor = nil
    }
}
