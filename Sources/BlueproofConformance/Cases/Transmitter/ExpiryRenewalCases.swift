import BlueproofTransmitter
import Foundation

/// The expiry of secure connections beyond the idle window of `SecureCases`
/// (bridgefy-ios-sdk-readme.md, "Secure connections"): presence counts as activity, a lapsed
/// secure connection can be made again, one limit covers every secure connection, the limit
/// before any set, and a reconnection within the expiry needs no new handshake. Limits of a
/// few seconds in the profile's unit (`ExpiryUnit`), passing as `TransmitterStage.elapse` says.
enum ExpiryRenewalCases {
    static let message = SecureCases.message
    /// The short limit these cases set, about this long in the profile's unit.
    static let shortExpiry = Duration.seconds(2)

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/SEC/BV-08", nodes: 2, brokenBy: [.expiryNotRefreshed]) { stage in
                // In range for 1.5 limits after the handshake, then away: sent at once, the
                // encrypted packet is within the limit only if presence restarted the expiry.
                let unit = try ExpiryUnit(stage.context.profile)
                let limit = unit.limit(near: .seconds(3))
                let (_, tester) = try await stage.connectedPair()
                try await stage.subject.setSecureConnectionExpirationLimit(limit)
                try await stage.secure(0, with: tester)
                let inRange = unit.span(limit) * 1.5
                try await stage.elapse(inRange)
                await stage.nodes[1].stop()
                _ = try await stage.wait(0, for: "the tester's disconnection") { $0 == .disconnected(tester) }
                do {
                    let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                    return .pass("in range for \(inRange) with a limit of \(limit) \(unit), then away: an encrypted send was accepted (packet \(id))")
                } catch {  // any refusal fails the case: noSecureConnection is wrong here (presence is activity)
                    return .fail("in range for \(inRange) past a handshake with a limit of \(limit) \(unit), an encrypted send right after the peer left was refused: \(error)")
                }
            },
            ScriptCase("BFT/SEC/BV-10", nodes: 2, brokenBy: [.expiryPermanent]) { stage in
                let unit = try ExpiryUnit(stage.context.profile)
                let limit = unit.limit(near: shortExpiry)
                let tester = try await stage.onDemandPair()
                try await stage.subject.setSecureConnectionExpirationLimit(limit)
                try await stage.secure(0, with: tester)
                try await stage.reconnect(tester, after: unit.span(limit) + SecureCases.probeMargin)
                do {
                    let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .directTransmission])
                    throw StageFailure(.secureConnection, "the secure connection never lapsed: an encrypted send was accepted (packet \(id)) \(unit.span(limit) + SecureCases.probeMargin) after the peer left, past the limit of \(limit) \(unit)")
                } catch is TransmitterError {}
                try await stage.secure(0, with: tester, again: true)
                // Any refusal fails the case: noSecureConnection is wrong here (a new secure connection was made).
                if let failure = await encryptedDelivered(stage, to: tester, after: "the secure connection lapsed and a new one was made") { return failure }
                return .pass("refused after the expiry of \(limit) \(unit); a new secure connection made encrypted sends possible again (delivered intact)")
            },
            ScriptCase("BFT/SEC/BV-12", nodes: 3, brokenBy: [.limitSparesExisting], judgesRefusals: true, radioScenario: ScriptCase.star) { stage in
                // Two secure connections under a long limit; a short one set afterwards must
                // govern both once their peers leave.
                let unit = try ExpiryUnit(stage.context.profile)
                let subject = try await stage.start(0)
                var testers: [UserID] = []
                for index in 1...2 { testers.append(try await stage.start(index)) }
                try await stage.subject.setSecureConnectionExpirationLimit(unit.limit(near: .seconds(3600)))
                for (index, tester) in testers.enumerated() {
                    _ = try await stage.wait(0, for: "connection with tester \(index + 1)") { $0 == .connected(tester) }
                    _ = try await stage.wait(index + 1, for: "connection with the subject") { $0 == .connected(subject) }
                    try await stage.secure(0, with: tester)
                }
                let limit = unit.limit(near: shortExpiry)
                try await stage.subject.setSecureConnectionExpirationLimit(limit)
                for (index, tester) in testers.enumerated() {
                    await stage.nodes[index + 1].stop()
                    _ = try await stage.wait(0, for: "tester \(index + 1)'s disconnection") { $0 == .disconnected(tester) }
                }
                let idle = unit.span(limit) + SecureCases.probeMargin
                try await stage.elapse(idle)
                for (index, tester) in testers.enumerated() {
                    do {
                        let id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .meshTransmission])
                        return .fail("secure connection \(index + 1), made before the limit was set to \(limit) \(unit), still took an encrypted send \(idle) after its peer left (packet \(id))")
                    } catch {
                        let judged = try stage.judgeRefusal(error, of: "an encrypted send to tester \(index + 1) \(idle) after it left", by: [.noSecureConnection])
                        guard judged.verdict == .pass else { return judged }
                    }
                }
                return .pass("a limit of \(limit) \(unit) set after two secure connections were made governed both: each refused \(idle) after its peer left")
            },
            ScriptCase("BFT/SEC/BV-13", nodes: 1, brokenBy: [.expirationDefaultWrong]) { stage in
                let key = "bridgefy.secure_connection.expiration_limit_default"
                guard case .int(let documented) = try stage.context.profile.value(key) else {
                    return .notApplicable("no document gives the expiration limit's default, and the profile names none (\(key) is null)")
                }
                try await stage.start(0)
                let read = await stage.subject.secureConnectionExpirationLimit()
                guard read == documented else { return .fail("before any set the expiration limit reads \(read), the profile's default is \(documented)") }
                return .pass("before any set the expiration limit reads the profile's default, \(documented)")
            },
            ScriptCase("BFT/SEC/BV-14", nodes: 2, brokenBy: [.handshakeOnEveryConnection],
                       quietWindow: SecureAnswerCases.unaskedHandshakeWindow) { stage in
                let unit = try ExpiryUnit(stage.context.profile)
                let limit = unit.limit(near: .seconds(3600))
                let tester = try await stage.onDemandPair()
                try await stage.subject.setSecureConnectionExpirationLimit(limit)
                try await stage.secure(0, with: tester)
                let marks = stage.logs.map(\.events.count)
                let captured = stage.context.captures.first.flatMap { try? CaptureEvidence(path: $0).records.count }
                try await stage.reconnect(tester, after: .zero)
                // Any refusal fails the case: noSecureConnection is wrong here (the expiry had not run out).
                if let failure = await encryptedDelivered(stage, to: tester, after: "reconnecting within the expiry of \(limit) \(unit)") { return failure }
                // One window for both nodes: the tester's events are read once the subject's window is over.
                let isSecure: @Sendable (TransmitterEvent) -> Bool = { if case .secureConnection = $0 { true } else { false } }
                for node in 0...1 {
                    let window = node == 0 ? SecureAnswerCases.unaskedHandshakeWindow : .zero
                    if let again = await stage.logs[node].first(within: window, from: marks[node], where: isSecure) {
                        return .fail("reconnecting within the expiry made a new handshake: node \(node) reported \(again)")
                    }
                }
                // Over controllers, the subject's capture must carry no key exchange after the reconnection either.
                if let captured, let path = stage.context.captures.first {
                    let exchanged = try CaptureEvidence(path: path).transmitterFrames.filter { frame in
                        switch frame.content {
                        case .keyRequest, .keyResponse: frame.frame > captured
                        default: false
                        }
                    }.map(\.frame)
                    if !exchanged.isEmpty {
                        return .fail("reconnecting within the expiry exchanged keys on the air again",
                                     findings: [Finding("key exchange after the reconnection", capture: path, frames: exchanged)])
                    }
                }
                return .pass("reconnected within the expiry: an encrypted send was accepted and delivered intact with no new handshake (none reported\(captured == nil ? "" : ", none on the air"))")
            },
        ]
    }
}

extension ExpiryRenewalCases {
    /// An encrypted direct send from the subject to the connected `tester`, which must be
    /// accepted and arrive intact; the failure if it was not.
    static func encryptedDelivered(_ stage: TransmitterStage, to tester: UserID, after what: String) async -> CaseOutcome? {
        let id: PacketID
        do {
            id = try await stage.subject.send(dictionary: message, data: nil, to: tester, options: [.encrypted, .directTransmission])
        } catch {
            return .fail("after \(what), an encrypted send was refused: \(error)")
        }
        guard let packet = await stage.logs[1].received(id, within: stage.airTimeout), packet.dictionary == message else {
            return .fail("the encrypted packet \(id) sent after \(what) never arrived intact")
        }
        return nil
    }
}

extension TransmitterStage {
    /// Starts the subject and the tester in on-demand mode and connects the subject to the
    /// tester on request ("2. On-demand"), so the subject can later leave and come back
    /// without either side restarting. Returns the tester.
    func onDemandPair() async throws -> UserID {
        let subject = try await start(0, mode: .onDemand)
        let tester = try await start(1, mode: .onDemand)
        _ = try await wait(0, for: "didDetectNearbyUser for the tester") { $0 == .nearbyUser(tester) }
        try await connectOnDemand(tester, subject: subject)
        return tester
    }

    /// Disconnects the on-demand subject from `tester`, waits `away`, and connects again.
    func reconnect(_ tester: UserID, after away: Duration) async throws {
        guard let subject = await nodes[0].localUser() else { throw StageFailure(.start, "the subject has no user id") }
        let mark = logs.map(\.events.count)
        do {
            try await nodes[0].disconnect(from: tester)
        } catch {
            throw StageFailure(.connection, "the on-demand subject could not disconnect from the tester: \(error)")
        }
        _ = try await wait(0, for: "the tester's disconnection") { $0 == .disconnected(tester) }
        if away > .zero { try await elapse(away) }
        try await connectOnDemand(tester, subject: subject, from: mark)
    }

    /// The on-demand subject connects to `tester` (`OnDemandCapCase.refusal`); both must report
    /// the connection after event `mark`. A link may report the peer gone when a connection
    /// ends: then the subject connects once it reports the peer nearby again.
    private func connectOnDemand(_ tester: UserID, subject: UserID, from mark: [Int] = [0, 0]) async throws {
        if let refused = await OnDemandCapCase.refusal(self, tester, from: mark[0]) {
            guard await logs[0].first(within: airTimeout, from: mark[0], where: { $0 == .nearbyUser(tester) }) != nil else {
                throw StageFailure(.connection, "connectToUser on the tester failed and it was not reported nearby again: \(refused)")
            }
            if let again = await OnDemandCapCase.refusal(self, tester, from: mark[0]) {
                throw StageFailure(.connection, "connectToUser on the tester failed: \(again)")
            }
        }
        _ = try await wait(1, for: "connection with the subject", from: mark[1]) { $0 == .connected(subject) }
    }
}
