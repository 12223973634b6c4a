import BlueproofHost

/// The node's entry points for the CLI's `spark send` and the SPK testers; a subject's node
/// never calls them (Conformance/mutation/map.txt leaves them out of its judging).
extension SparkChannelNode {
    /// Waits until everything the core queued for `peer` has left this host: taken from the
    /// core, accepted by the channel, sent on credits and completed by the controller. What a
    /// sender awaits before it disconnects (docs/spark-wire.md has no acknowledgement frame).
    /// Throws `channelClosed` when the link is lost first.
    public func drain(_ peer: UInt64) async throws(LEHostError) {
        let channel = try channel(of: peer)
        while core.pendingPeers.contains(peer) || ledger.busy(peer) {
            guard await ledger.waiter(for: peer).wait() == true else { throw .channelClosed(cid: channel.local.cid) }
        }
        try await host.drain(channel)
    }

    /// Sends `frame` to `peer` as it is, once everything the core queued for it has left: a
    /// tester's fault, for frames a conforming core never sends (docs/spark-wire.md, "Exchange" 4).
    public func sendRaw(_ frame: [UInt8], to peer: UInt64) async throws(LEHostError) {
        try await drain(peer)
        try await host.send(frame, on: channel(of: peer))
    }

    /// Stops returning L2CAP credits to `peer`, or resumes (a tester's fault, Core Vol 3,
    /// Part A §10.1): the peer's sends must wait on flow control, then go on in order.
    public func withholdCredits(_ withheld: Bool, from peer: UInt64) async throws(LEHostError) {
        try await host.withholdCredits(withheld, on: channel(of: peer))
    }

    /// Whether a channel to `peer` is open now: a tester checks the subject kept it.
    public func isLinked(to peer: UInt64) -> Bool { (try? channel(of: peer)) != nil }

    /// Waits until `peer` has used every credit this side granted it; throws when its link goes first.
    public func creditsExhausted(by peer: UInt64) async throws(LEHostError) {
        try await host.peerCreditsExhausted(on: channel(of: peer))
    }
}
