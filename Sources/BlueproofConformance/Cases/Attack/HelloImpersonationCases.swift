import BlueproofTransmitter

/// A second identity claiming the subject's peer's id in its hello (the Bridgefy attack of
/// breaking-bridgefy-2021, "Authenticity": anyone could say hello as anyone), against the SDK
/// readme's "Secure connections" claim that a peer's keys identify it. docs/security.md
/// "Hello impersonation".
enum HelloImpersonationCases {
    static func all() -> [ScriptCase] {
        [ScriptCase("BFT/ATK/BV-01", nodes: 3, brokenBy: [.unsignedHello], impostorRefused)]
    }

    /// BFT/ATK/BV-01: the subject meets tester 1 and makes a secure connection (tester 1's key is
    /// on record); tester 1 leaves. Tester 2, an impostor under tester 1's id with keys of its
    /// own, comes in range. Once the impostor has met the subject, the subject must not report
    /// tester 1 connected; the reference hangs up on the impostor (its hello proves no key on
    /// record), which the impostor sees as a disconnection.
    @Sendable static func impostorRefused(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (subject, peer) = try await stage.connectedPair()
        try await stage.secure(0, with: peer)
        let leaving = stage.logs[0].events.count
        await stage.nodes[1].stop()
        _ = try await stage.wait(0, for: "tester 1 leaving", from: leaving) { $0 == .disconnected(peer) }
        guard let provider = stage.context.transmitterProvider else { throw StageFailure(.tester, "no transmitter provider") }
        do {
            try await provider.impersonate(peer, onTester: 2, for: stage.context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable(unavailable.reason)
        }
        let mark = stage.logs[0].events.count
        let claimed = try await stage.start(2)
        guard claimed == peer else { throw StageFailure(.tester, "the impostor started as \(claimed), not as tester 1 (\(peer))") }
        _ = try await stage.wait(2, for: "the impostor meeting the subject") { $0 == .connected(subject) }
        let tookIt = { stage.logs[0].events[mark...].contains(.connected(peer)) }
        var hungUp = false
        if !tookIt() {
            hungUp = await stage.logs[2].first(within: stage.airTimeout) { $0 == .disconnected(subject) } != nil
        }
        if tookIt() {
            return .fail("the subject took an impostor (keys of its own, no proof with tester 1's) for tester 1 \(peer.shortName) and reported it connected")
        }
        return .pass(hungUp
            ? "the subject never reported the impostor as tester 1 and ended its connection"
            : "the subject never reported the impostor as tester 1 within \(stage.airTimeout)")
    }
}
