import BlueproofTransmitter
import Foundation

/// The licence at start (bridgefy-ios-sdk-readme.md, "2. Start transmitter", "1. Instance",
/// "Configuring Transmitter Framework without Internet"): the runner hands the subject the
/// certificate an app holds under the offline key (`setLicence`, control protocol 3); with no
/// network, that certificate alone decides whether start succeeds.
enum LicenceCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/LIFE/BI-01", nodes: 1, brokenBy: [.licenceIgnored]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                let expired = try LicenceIssuer.blueproofTest().issue(
                    apiKey: ReferenceTransmitterProvider.apiKey, holder: "blueproof conformance runner", expires: Date().addingTimeInterval(-86_400))
                for (what, certificate) in [("an expired licence", expired), ("a licence that is not one", "not a licence")] {
                    if let outcome = try await refusesToStart(stage, with: certificate, what: what) { return outcome }
                }
                return .pass("start failed with didFailAtStartWithError for an expired licence and for one that is not a licence")
            },
            ScriptCase("BFT/LIFE/BI-02", nodes: 1, brokenBy: [.startsWithoutLicence]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                if let outcome = try await refusesToStart(stage, with: "", what: "no offline certificate and no network") { return outcome }
                return .pass("with no offline certificate and no network the first start failed with didFailAtStartWithError")
            },
            ScriptCase("BFT/LIFE/BV-06", nodes: 1, brokenBy: [.networkNeedUnreported]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                await stage.subject.setLicence("")
                let mark = stage.logs[0].events.count
                let started = (try? await stage.subject.start(mode: .automatic)) != nil
                await stage.subject.setLicence(nil)
                guard await stage.logs[0].first(within: stage.airTimeout, from: mark, where: { $0 == .licenceNeedsNetwork }) != nil else {
                    return .fail("with no offline certificate, the need to reach the network to validate the licence was never reported as an event"
                        + (started ? "" : "; only the start's failure was"))
                }
                return .pass("with no offline certificate, the need to reach the network was reported as an event (didOccurEvent)"
                    + (started ? "" : ", apart from the start's failure"))
            },
            ScriptCase("BFT/LIFE/BV-07", nodes: 1, brokenBy: [.offlineLicenceIgnored]) { stage in
                if let outcome = await unavailable(stage) { return outcome }
                if stage.context.transmitterProvider?.isDeviceUnderTest == true {
                    return .notApplicable("the runner holds certificates from blueproof's test issuer only, for the reference's API key; an implementation under test validates certificates of its own issuer")
                }
                let valid = try LicenceIssuer.blueproofTest().issue(
                    apiKey: ReferenceTransmitterProvider.apiKey, holder: "blueproof conformance runner", expires: Date().addingTimeInterval(86_400))
                await stage.subject.setLicence(valid)
                do {
                    try await stage.subject.start(mode: .automatic)
                } catch {
                    await stage.subject.setLicence(nil)
                    return .fail("with a valid offline certificate and no network, start failed: \(error)")
                }
                await stage.subject.setLicence(nil)
                return .pass("with a valid offline certificate and no network, the transmitter started")
            },
        ]
    }

    /// Gives `certificate` and starts: nil when start failed, thrown and reported as
    /// didFailAtStartWithError; `fail` otherwise. The subject's own licence is back afterwards.
    static func refusesToStart(_ stage: TransmitterStage, with certificate: String, what: String) async throws -> CaseOutcome? {
        await stage.subject.setLicence(certificate)
        let mark = stage.logs[0].events.count
        do {
            try await stage.subject.start(mode: .automatic)
            await stage.subject.setLicence(nil)
            return .fail("the transmitter started with \(what)")
        } catch {
            await stage.subject.setLicence(nil)
            guard await stage.logs[0].first(within: stage.airTimeout, from: mark, where: { if case .startFailed = $0 { true } else { false } }) != nil else {
                return .fail("start with \(what) threw \(error) but reported no didFailAtStartWithError")
            }
            return nil
        }
    }

    /// Not applicable when the subject cannot be handed a certificate (before control protocol 3).
    static func unavailable(_ stage: TransmitterStage) async -> CaseOutcome? {
        guard await !stage.subject.takesHarnessCalls() else { return nil }
        return .notApplicable("the implementation speaks a control protocol before 3, which has no setLicence (docs/control-protocol.md, \"Versions\")")
    }
}
