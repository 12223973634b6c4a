import BlueproofTransmitter
import Foundation

/// Where the session lives (bridgefy-ios-sdk-readme.md, "Session": persistent on the device,
/// the same credentials for every transmitter instance, destroyed only explicitly): judged with
/// another process of the implementation on the subject's session (`otherProcess`), and a
/// damaged store under the profile's policy.
enum SessionStoreCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/SES/BI-02", nodes: 1, brokenBy: [.damagedSessionReplaced], damagedSession),
            ScriptCase("BFT/SES/BI-03", nodes: 1, brokenBy: [.sessionNotPersisted]) { stage in
                let user = try await stage.start(0)
                let other: any TransmitterControl
                switch try await otherInstance(stage) {
                case .started(let started): other = started
                case .concluded(let outcome): return outcome
                }
                do {
                    try await other.destroySession()
                } catch {
                    return .fail("destroySession from the second instance failed: \(error)")
                }
                guard await !stage.subject.hasSession() else {
                    return .fail("the session was destroyed from another instance, yet this instance still reports hasSession true")
                }
                await stage.subject.stop()
                let after = try await stage.start(0)
                guard after != user else { return .fail("the session was destroyed from another instance, yet this instance started again as \(user)") }
                return .pass("destroyed from another instance: hasSession turned false here, and the next start made a new identity (\(after.shortName)…, was \(user.shortName)…)")
            },
            ScriptCase("BFT/SES/BV-03", nodes: 1, brokenBy: [.sessionNotPersisted]) { stage in
                let user = try await stage.start(0)
                let key = try await stage.subject.localPublicKey()
                await stage.subject.stop()
                switch try await otherInstance(stage) {
                case .started(let other): return await sameCredentials(other, as: user, key: key, what: "a new process after this one stopped")
                case .concluded(let outcome): return outcome
                }
            },
            ScriptCase("BFT/SES/BV-06", nodes: 1, brokenBy: [.sessionExpiresInAYear]) { stage in
                let user = try await stage.start(0)
                let key = try await stage.subject.localPublicKey()
                guard let provider = stage.context.transmitterProvider else { throw StageFailure(.tester, "no transmitter provider") }
                do {
                    try await provider.advanceClock(of: 0, by: clockRun, for: stage.context)
                } catch let unavailable as TransmitterUnavailable {
                    return .notApplicable("the implementation's clock cannot be moved, and no real wait shows a session never expires: \(unavailable.reason)")
                }
                guard await stage.subject.hasSession() else { return .fail("with the clock moved on 100 years, hasSession is false") }
                guard await stage.subject.localUser() == user else { return .fail("with the clock moved on 100 years, the user id is no longer \(user)") }
                guard try await stage.subject.localPublicKey() == key else { return .fail("with the clock moved on 100 years, the public key changed") }
                return .pass("with the implementation's clock moved on 100 years the session stands: hasSession true, the same user id and public key")
            },
            // issue 14: BFT/SES/BV-04
            ScriptCase("BFT/SES/BV-04", nodes: 1, brokenBy: [.sessionInAppData], appRemoved),
            ScriptCase("BFT/SES/BV-05", nodes: 1, brokenBy: [.sessionNotPersisted]) { stage in
                let user = try await stage.start(0)
                let key = try await stage.subject.localPublicKey()
                switch try await otherInstance(stage) {
                case .started(let other): return await sameCredentials(other, as: user, key: key, what: "a second instance running alongside")
                case .concluded(let outcome): return outcome
                }
            },
        ]
    }

    /// How far BFT/SES/BV-06 moves the subject's clock: past any lifetime a session could be given.
    static let clockRun: TimeInterval = 100 * 365 * 86_400

    /// Another instance of the subject, or the verdict already reached trying to start one.
    enum OtherInstance {
        case started(any TransmitterControl)
        case concluded(CaseOutcome)
    }

    /// Another process of the implementation on the subject's session, started. Not applicable
    /// when the provider cannot start one; its failure to start is the subject's (a `fail`).
    static func otherInstance(_ stage: TransmitterStage) async throws -> OtherInstance {
        guard let provider = stage.context.transmitterProvider else { throw StageFailure(.tester, "no transmitter provider") }
        let other: any TransmitterControl
        do {
            other = try await provider.otherProcess(sharingSessionOf: 0, for: stage.context)
        } catch let unavailable as TransmitterUnavailable {
            return .concluded(.notApplicable("no second instance of the implementation: \(unavailable.reason)"))
        }
        do {
            try await other.start(mode: .automatic)
        } catch {
            return .concluded(.fail("another process on the subject's session did not start: \(error)"))
        }
        return .started(other)
    }

    /// `other` must report the user id and public key of the subject's session.
    static func sameCredentials(_ other: any TransmitterControl, as user: UserID, key: String, what: String) async -> CaseOutcome {
        let otherUser = await other.localUser()
        let otherKey = try? await other.localPublicKey()
        await other.stop()
        guard otherUser == user else { return .fail("\(what) on the same session is \(otherUser.map(\.description) ?? "no user"), this one \(user)") }
        guard otherKey == key else { return .fail("\(what) on the same session has another public key") }
        return .pass("\(what) on the same session has the same identifier (\(user.shortName)…) and public key")
    }

    /// BFT/SES/BV-04: the app is deleted (the subject stopped, its own data removed) and run
    /// again as a new process: the session, kept in device storage, gives it the same
    /// identifier and public key (bridgefy-ios-sdk-readme.md, "Session": persistent even after
    /// the user deletes the app).
    @Sendable static func appRemoved(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let user = try await stage.start(0)
        let key = try await stage.subject.localPublicKey()
        await stage.subject.stop()
        guard let provider = stage.context.transmitterProvider else { throw StageFailure(.tester, "no transmitter provider") }
        do {
            try await provider.removeAppData(of: 0, for: stage.context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable("the app's own data cannot be removed here: \(unavailable.reason)")
        }
        switch try await otherInstance(stage) {
        case .started(let other): return await sameCredentials(other, as: user, key: key, what: "the app run again after its own data was removed")
        case .concluded(let outcome): return outcome
        }
    }

    /// BFT/SES/BI-02: the subject's stored session is damaged while it is stopped; the next
    /// start follows `bridgefy.session.on_corrupt_store` (the documents are silent; the profile
    /// records the policy): `fail_start` refuses to start, `new_session` starts as a new user.
    /// Either way the damaged identity is never used as if it were intact.
    @Sendable static func damagedSession(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let policy = try stage.context.profile.string("bridgefy.session.on_corrupt_store")
        let user = try await stage.start(0)
        await stage.subject.stop()
        guard let provider = stage.context.transmitterProvider else { throw StageFailure(.tester, "no transmitter provider") }
        do {
            try await provider.damageSession(of: 0, for: stage.context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable("the stored session cannot be damaged here: \(unavailable.reason)")
        }
        do {
            try await stage.subject.start(mode: .automatic)
        } catch {
            guard policy == "fail_start" else { return .fail("the start on a damaged session failed, but the profile's policy is \(policy): \(error)") }
            return .pass("the start on a damaged session failed, as the profile's policy fail_start says: \(error)")
        }
        let after = await stage.subject.localUser()
        guard policy == "new_session" else {
            return .fail("the subject started on a damaged session (as \(after.map(\.description) ?? "no user")), but the profile's policy is \(policy)")
        }
        guard let after, after != user else { return .fail("the subject started on a damaged session as the damaged identity \(user)") }
        return .pass("the start on a damaged session made a new session (\(after.shortName)…), as the profile's policy new_session says")
    }
}
