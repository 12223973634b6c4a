import BlueproofTransmitter
import Foundation

/// Secure connections and their expiry (bridgefy-ios-sdk-readme.md, "Secure connections").
/// Limits of a few seconds in the profile's unit (`ExpiryUnit`); the idle spans pass on the
/// subject's clock when the provider can move it (the reference), in real time otherwise, so
/// the same cases hold for an implementation under test whose clock the runner does not
/// control (`TransmitterStage.elapse`).
enum SecureCases {
    static let message: [String: TransmitterValue] = ["text": .string("blueproof secure")]
    /// About how long the short expiration limit of BI-03 and BV-07 lasts; the limit set is
    /// this in the profile's unit (`ExpiryUnit`).
    static let shortExpiry = Duration.seconds(4)
    /// How far from the limit BI-03 and BV-07 probe, either side (their titles' one second).
    static let probeMargin = Duration.seconds(1)

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/SEC/BV-02", nodes: 2, brokenBy: [.secureConnectionNeverCompletes]) { stage in
                let (_, tester) = try await stage.connectedPair()
                try await stage.nodes[0].establishSecureConnection(with: tester)
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .secureConnection(tester) }) != nil else {
                    return .fail("no didDetectSecureConnection after establishSecureConnection")
                }
                return .pass("establishSecureConnection led to didDetectSecureConnection with \(tester.shortName)")
            },
            // "Secure connections": the delegate reports a successful secure connection "in both
            // ways"; here the tester starts it, and the subject, which only answered, must report
            // it too and may then send encrypted content to the tester.
            ScriptCase("BFT/SEC/BV-16", nodes: 2, brokenBy: [.secureConnectionNeverCompletes]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                try await stage.secure(1, with: subject)
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .secureConnection(tester) }) != nil else {
                    return .fail("the tester made a secure connection with the subject, which never reported didDetectSecureConnectionWithUser")
                }
                let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .directTransmission])
                return .pass("a secure connection the tester started was reported by the subject, whose encrypted send was accepted (packet \(id))")
            },
            ScriptCase("BFT/SEC/BV-03", nodes: 2, brokenBy: [.encryptionRefused]) { stage in
                let (_, tester) = try await stage.connectedPair()
                try await stage.secure(0, with: tester)
                let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .directTransmission])
                return .pass("encrypted send accepted after the secure connection (packet \(id))")
            },
            ScriptCase("BFT/SEC/BV-05", nodes: 2, brokenBy: [.keyNotStored]) { stage in
                let (_, tester) = try await stage.connectedPair()
                guard await !stage.subject.existsKey(forUser: tester) else {
                    throw StageFailure(.freshSession, "a key for the tester existed before the handshake")
                }
                try await stage.secure(0, with: tester)
                guard await stage.subject.existsKey(forUser: tester) else { return .fail("existsKeyForUser is false after the handshake") }
                return .pass("existsKeyForUser turned true with the handshake")
            },
            ScriptCase("BFT/SEC/BI-02", nodes: 2, brokenBy: [.secureConnectionToAnyone], judgesRefusals: true) { stage in
                try await stage.start(0)
                let stranger = UserID.random()
                do {
                    try await stage.subject.establishSecureConnection(with: stranger)
                } catch {
                    return try stage.judgeRefusal(error, of: "establishSecureConnection on a user not connected", by: [.userNotConnected])
                }
                if await stage.logs[0].first(within: .seconds(3), where: { $0 == .secureConnection(stranger) }) != nil {
                    return .fail("a secure connection was reported with a user never connected")
                }
                return .fail("establishSecureConnection on a user not connected reported no error")
            },
            ScriptCase("BFT/SEC/BV-11", nodes: 1, brokenBy: [.expirationLimitIgnored]) { stage in
                try await stage.start(0)
                for limit in [1, 3600, 86_400 * 30] {
                    try await stage.subject.setSecureConnectionExpirationLimit(limit)
                    let read = await stage.subject.secureConnectionExpirationLimit()
                    guard read == limit else { return .fail("set \(limit), read back \(read)") }
                }
                return .pass("1, 3600 and 2592000 read back as set")
            },
            ScriptCase("BFT/SEC/BV-06", nodes: 2, brokenBy: [.expiryImmediate]) { stage in
                let unit = try ExpiryUnit(stage.context.profile)
                let limit = unit.limit(near: .seconds(3600))
                let tester = try await awayAfterSecure(stage, limit: limit)
                let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                return .pass("encrypted mesh send to a user out of range accepted within the expiry of \(limit) \(unit) (packet \(id))")
            },
            ScriptCase("BFT/SEC/BI-03", nodes: 2, brokenBy: [.expiryNeverLapses], judgesRefusals: true) { stage in
                try await expiryWindow(stage, upperSide: true)
            },
            ScriptCase("BFT/SEC/BV-07", nodes: 2, brokenBy: [.expiryEarly]) { stage in
                try await expiryWindow(stage, upperSide: false)
            },
            ScriptCase("BFT/SEC/BV-09", nodes: 2, brokenBy: [.expiryNotRefreshed]) { stage in
                // Encrypted sends while away are activity: one every 0.4 limits keeps the secure
                // connection alive for 1.6 limits (with a 5 s limit: every 2 s for 8 s).
                let unit = try ExpiryUnit(stage.context.profile)
                let limit = unit.limit(near: .seconds(5))
                let period = unit.span(limit) * 0.4
                let tester = try await awayAfterSecure(stage, limit: limit)
                for round in 1...4 {
                    try await stage.elapse(period)
                    do {
                        _ = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                    } catch {  // any refusal fails the case: noSecureConnection is wrong here (the connection lapsed although refreshed)
                        return .fail("encrypted send \(round) (at \(period * round), limit \(limit) \(unit), refreshed by each send) refused: \(error)")
                    }
                }
                return .pass("encrypted sends every \(period) kept a secure connection of \(limit) \(unit) alive for \(period * 4)")
            },
        ]
    }

    /// BFT/SEC/BI-03 and BV-07: the expiry, bounded from both sides around a short limit set in
    /// the profile's unit. Idle one margin less than the limit, an encrypted send must still be
    /// accepted (BV-07; BI-03 also asks it, or an implementation that expires at once would pass
    /// BI-03); that send is activity and restarts the expiry, so with `upperSide`, idle one
    /// margin more than the limit after it, the next encrypted send must be refused (BI-03).
    static func expiryWindow(_ stage: TransmitterStage, upperSide: Bool) async throws -> CaseOutcome {
        let unit = try ExpiryUnit(stage.context.profile)
        let limit = unit.limit(near: shortExpiry)
        let span = unit.span(limit)
        let margin = min(probeMargin, span / 4)
        let tester = try await awayAfterSecure(stage, limit: limit)
        try await stage.elapse(span - margin)
        let early: PacketID
        do {
            early = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
        } catch {  // any refusal fails the case: noSecureConnection is wrong here (expired before the limit)
            return .fail("encrypted send refused \(span - margin) after the peer left, before the limit of \(limit) \(unit) (\(span)): \(error)")
        }
        guard upperSide else {
            return .pass("encrypted send accepted \(span - margin) after the peer left, within the limit of \(limit) \(unit) (packet \(early))")
        }
        try await stage.elapse(span + margin)
        do {
            let late = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
            return .fail("encrypted send accepted \(span + margin) after the last activity, past the limit of \(limit) \(unit) (packet \(late))")
        } catch {
            let judged = try stage.judgeRefusal(error, of: "an encrypted send \(span + margin) after the last activity", by: [.noSecureConnection])
            guard judged.verdict == .pass else { return judged }
            return .pass("accepted \(span - margin) idle (packet \(early)), refused \(span + margin) after that send with a limit of \(limit) \(unit): \(error)")
        }
    }

    /// Connects, makes a secure connection from the subject, sets `limit`, and takes the tester
    /// out of range (stopped); returns the tester.
    static func awayAfterSecure(_ stage: TransmitterStage, limit: Int) async throws -> UserID {
        let (_, tester) = try await stage.connectedPair()
        try await stage.subject.setSecureConnectionExpirationLimit(limit)
        try await stage.secure(0, with: tester)
        // Held before the disconnection, the last activity the idle spans are measured from.
        try await stage.holdSubjectClock()
        await stage.nodes[1].stop()
        _ = try await stage.wait(0, for: "the tester's disconnection") { $0 == .disconnected(tester) }
        return tester
    }
}
