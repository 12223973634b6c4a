import BlueproofTransmitter
import Foundation

/// Secure connections and their expiry (bridgefy-ios-sdk-readme.md, "Secure connections").
/// Expiry runs on real time here with a limit of a few seconds, so the same cases hold for an
/// implementation under test whose clock the runner does not control; the unit tests check the
/// same rules on a manual clock.
enum SecureCases {
    static let message: [String: TransmitterValue] = ["text": .string("blueproof secure")]
    /// The expiration limit the expiry cases set, in the profile's unit (seconds).
    static let shortLimit = 3

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
                let tester = try await awayAfterSecure(stage, limit: 3600)
                let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                return .pass("encrypted mesh send to a user out of range accepted within the expiry (packet \(id))")
            },
            ScriptCase("BFT/SEC/BI-03", nodes: 2, brokenBy: [.expiryNeverLapses], judgesRefusals: true) { stage in
                let tester = try await awayAfterSecure(stage, limit: shortLimit)
                try await Task.sleep(for: .seconds(shortLimit + 1))
                do {
                    let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                    return .fail("encrypted send accepted \(shortLimit + 1) s after the peer left with a \(shortLimit) s limit (packet \(id))")
                } catch {
                    return try stage.judgeRefusal(error, of: "an encrypted send \(shortLimit + 1) s after the peer left with a \(shortLimit) s limit",
                                                  by: [.noSecureConnection])
                }
            },
            ScriptCase("BFT/SEC/BV-09", nodes: 2, brokenBy: [.expiryNotRefreshed]) { stage in
                // Encrypted sends while away are activity: one every 2 s keeps a 5 s secure
                // connection alive for 8 s (3 s of slack for a busy machine).
                let limit = 5
                let tester = try await awayAfterSecure(stage, limit: limit)
                for round in 1...4 {
                    try await Task.sleep(for: .seconds(2))
                    do {
                        _ = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                    } catch {
                        return .fail("encrypted send \(round) (at \(2 * round) s, limit \(limit) s, refreshed by each send) refused: \(error)")
                    }
                }
                return .pass("encrypted sends every 2 s kept a \(limit) s secure connection alive for 8 s")
            },
        ]
    }

    /// Connects, makes a secure connection from the subject, sets `limit`, and takes the tester
    /// out of range (stopped); returns the tester.
    static func awayAfterSecure(_ stage: TransmitterStage, limit: Int) async throws -> UserID {
        let (_, tester) = try await stage.connectedPair()
        try await stage.subject.setSecureConnectionExpirationLimit(limit)
        try await stage.secure(0, with: tester)
        await stage.nodes[1].stop()
        _ = try await stage.wait(0, for: "the tester's disconnection") { $0 == .disconnected(tester) }
        return tester
    }
}
