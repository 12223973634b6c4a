import BlueproofBluenet
import BlueproofBluenetHost
@testable import BlueproofConformance
import BlueproofTransmitter
import Testing

/// issue 18: what a BLN case's verdict rests on. A script's verdict stands only when the
/// channel to the subject held (its non-throwing calls returned the library's values, not
/// empty ones) and the publication log kept everything (a pass judged on a log that dropped
/// publications may have missed what the rule forbids).
@Suite("Bluenet case verdicts")
struct BluenetCaseVerdictTests {
    /// A subject that does nothing, with a channel that failed or a log that overflowed.
    final class Subject: BluenetControl {
        let publications = BluenetPublicationLog(limit: BluenetPublication.maximumPerLibrary)
        let failure: String?
        init(failure: String? = nil, flood: Int = 0) {
            self.failure = failure
            for _ in 0..<flood { publications.record(BluenetPublication(at: .zero, topic: .advertisementData, object: "{}", stringified: "{}")) }
        }
        func harnessFailure() async -> String? { failure }
        func isReady() async {}
        func startScanning(_ filter: BluenetScanFilter) async throws {}
        func stopScanning() async {}
        func on(_ topic: BluenetTopic) async -> Int { 1 }
        func off(_ id: Int) async -> Bool { true }
        func trackUUID(_ uuid: String, groupId: String) async throws {}
        func connect(_ handle: String) async -> BluenetOutcome { .fulfilled }
        func disconnect() async -> BluenetOutcome { .fulfilled }
        func setSwitchState(_ state: Double) async -> BluenetOutcome { .fulfilled }
        func startCollectingFingerprint() async throws {}
        func pauseCollectingFingerprint() async throws {}
        func resumeCollectingFingerprint() async throws {}
        func abortCollectingFingerprint() async {}
        func finalizeFingerprint(groupId: String, locationId: String) async throws {}
        func loadFingerprint(groupId: String, locationId: String, fingerprint: String) async throws {}
        func getFingerprint(groupId: String, locationId: String) async -> String? { nil }
        func stop() async { publications.end() }
    }

    struct Provider: TransmitterProvider {
        let subject: Subject
        var name: String { "test subject" }
        var isDeviceUnderTest: Bool { true }
        func transmitters(_ count: Int, for context: CaseContext) async throws -> [any TransmitterControl] { [] }
        func release(for context: CaseContext) async {}
        func bluenet(on node: Int, for context: CaseContext) async throws -> any BluenetControl { subject }
    }

    /// The verdict of a case whose script concludes `outcome` (or throws `thrown`, by default an
    /// unmet precondition) on `subject`.
    static func verdict(of outcome: CaseOutcome?, on subject: Subject,
                        thrown: any Error & Sendable = BluenetCaseStopped.preconditionNotMet("the script threw")) async throws -> CaseOutcome {
        let item = BluenetCase("BLN/SCAN/BV-05", nodes: 1, brokenBy: []) { _ in
            guard let outcome else { throw thrown }
            return outcome
        }
        let entry = try #require(try Fixtures.catalogue().entries.first { $0.id == item.id })
        let context = CaseContext(entry: entry, profile: try Fixtures.defaultProfile(), hosts: [], captures: [], radio: nil,
                                  transmitterProvider: Provider(subject: subject), transferFaults: .none, log: CaseLog())
        do { return try await item.run(context) } catch { return .error("thrown: \(error)") }
    }

    @Test("a failed channel makes the case an error, whatever the script concluded or threw")
    func channelFailure() async throws {
        for concluded in [CaseOutcome.pass("looked fine"), .fail("looked wrong"), nil] {
            let outcome = try await Self.verdict(of: concluded, on: Subject(failure: "the control channel to the Bluenet library failed: gone"))
            #expect(outcome.verdict == .error && outcome.reason.contains("gone"), "\(String(describing: concluded)): \(outcome.reason)")
        }
    }

    @Test("a rule broken while setting up fails the case with its reason; an unmet precondition is an error; a failed channel makes either an error")
    func brokenWhileSettingUp() async throws {
        let broken = try await Self.verdict(of: nil, on: Subject(), thrown: BluenetCaseStopped.ruleBroken("ranged, but never in one round"))
        #expect(broken.verdict == .fail && broken.reason == "ranged, but never in one round", "\(broken.reason)")
        let unmet = try await Self.verdict(of: nil, on: Subject())
        #expect(unmet.verdict == .error && unmet.reason.contains("the script threw"), "\(unmet.reason)")
        let gone = try await Self.verdict(of: nil, on: Subject(failure: "gone"), thrown: BluenetCaseStopped.ruleBroken("ranged, but never in one round"))
        #expect(gone.verdict == .error && gone.reason.contains("gone"), "\(gone.reason)")
    }

    @Test("a pass on a log past its bound is an error naming the bound; a fail stands; a pass within it stands")
    func overflow() async throws {
        let flooded = try await Self.verdict(of: .pass("nothing forbidden seen"), on: Subject(flood: BluenetPublication.maximumPerLibrary + 1))
        #expect(flooded.verdict == .error && flooded.reason.contains("\(BluenetPublication.maximumPerLibrary)"), "\(flooded.reason)")
        let failed = try await Self.verdict(of: .fail("seen"), on: Subject(flood: BluenetPublication.maximumPerLibrary + 1))
        #expect(failed.verdict == .fail)
        let full = try await Self.verdict(of: .pass("nothing forbidden seen"), on: Subject(flood: BluenetPublication.maximumPerLibrary))
        #expect(full.verdict == .pass, "\(full.reason)")
    }

    @Test("the cases read JSON integers strictly: true, false, fractions, strings and out-of-range numbers are not integers")
    func strictIntegers() throws {
        let object = try #require(BluenetPublication.parse(#"{"a":-60,"b":258.0,"c":true,"d":false,"e":1.5,"f":"1","g":1e300,"h":[1,2],"i":[1,true]}"#))
        #expect(BluenetPublication.integer(object["a"]) == -60)
        #expect(BluenetPublication.integer(object["b"]) == 258)
        for key in ["c", "d", "e", "f", "g", "h", "absent"] { #expect(BluenetPublication.integer(object[key]) == nil, "\(key)") }
        #expect(BluenetPublication.integers(object["h"]) == [1, 2])
        #expect(BluenetPublication.integers(object["i"]) == nil)
        #expect(BluenetPublication.integers(object["a"]) == nil)
    }
}
