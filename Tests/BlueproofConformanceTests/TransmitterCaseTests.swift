@testable import BlueproofConformance
import BlueproofRadio
import BlueproofTestSupport
import BlueproofTransmitter
import Foundation
import Testing

/// The BFT cases against the reference transmitter in process (simulated link: every node in
/// range of every other): each passes on the reference and fails on the broken variant it
/// names (issue 6, "Every case can fail"). The same cases run over btvirt in `blueproof run`.
@Suite("Transmitter cases on the reference and its broken variants")
struct TransmitterCaseTests {
    static let cases = TransmitterCases.all()
    /// The cases judged here, in process: all but those judged on captures, which
    /// RunTransmitterTests runs over btvirt, right and broken.
    static let inProcess = cases.filter { !$0.judgesCaptures }

    @Test("every case is in the catalogue and names a variant that breaks it")
    func catalogued() throws {
        let catalogue = try Fixtures.catalogue()
        let known = Set(catalogue.entries.map(\.id))
        for item in Self.cases {
            #expect(known.contains(item.id), "\(item.id) is not in the catalogue")
            #expect(!item.brokenBy.isEmpty, "\(item.id) names no breaking variant")
        }
        #expect(Set(Self.cases.map(\.id)).count == Self.cases.count, "duplicate case ids")
    }

    @Test("the option matrix follows the catalogue's titles cell by cell")
    func matrixTitles() throws {
        let catalogue = try Fixtures.catalogue()
        for cell in OptionMatrixCase.all() {
            let title = try #require(catalogue.entries.first { $0.id == cell.id }?.title, "\(cell.id)")
            #expect(title.contains(cell.accepted ? "accepted" : "refused"), "\(cell.id): \(title)")
            #expect(title.hasPrefix(cell.transmissionTitle), "\(cell.id): \(title)")
            #expect(title.contains(cell.payloadTitle), "\(cell.id): \(title)")
        }
    }

    /// One at a time: the expiry cases run on real seconds, and a machine busy with a hundred
    /// cases at once would stretch them past their limits.
    @Test("passes on the reference, fails on its variant", .serialized, arguments: Self.inProcess.map(\.id.rawValue))
    func reference(id: String) async throws {
        let item = try #require(Self.cases.first { $0.id.rawValue == id })
        let reference = try await Self.run(item, defects: [])
        #expect(reference.verdict == .pass, "\(id) on the reference: \(reference.reason)")
        let broken = try await Self.run(item, defects: item.brokenBy)
        #expect(broken.verdict == .fail, "\(id) with \(item.brokenBy.map(\.rawValue).sorted()): \(broken.verdict) \(broken.reason)")
        if item.judgesRefusals {
            let misreported = try await Self.run(item, defects: [.refusesForWrongReason])
            #expect(misreported.verdict == .fail, "\(id) refusing for the wrong reason: \(misreported.verdict) \(misreported.reason)")
        }
    }

    /// BFT/ATK/BI-21 judges three rules (no reply, no id marked, no copy delivered): each of its
    /// variants alone breaks one and fails it.
    @Test("the decryption oracle case fails on each of its variants alone", arguments: [Defect.openFailureAnswered, .failedOpeningMarksSeen, .tagUnchecked])
    func oracleVariant(defect: Defect) async throws {
        let item = try #require(Self.cases.first { $0.id.rawValue == "BFT/ATK/BI-21" })
        let broken = try await Self.run(item, defects: [defect])
        #expect(broken.verdict == .fail, "BFT/ATK/BI-21 with \(defect): \(broken.verdict) \(broken.reason)")
    }

    /// The subject runs with its own limits, never the profile's: under a profile applying the
    /// Mesh section's 2048 bytes, the reference as it ships (1 KB) fails the mesh-section cases,
    /// and a reference built to that reading passes them.
    @Test("the SIZE cases judge the subject's own limits", arguments: ["BFT/SIZE/BV-06", "BFT/SIZE/BV-07"])
    func ownLimits(id: String) async throws {
        let item = try #require(Self.cases.first { $0.id.rawValue == id })
        let shipped = try await Self.run(item, defects: [], limits: .documented)
        #expect(shipped.verdict == .fail, "\(id) on the reference as it ships: \(shipped.verdict) \(shipped.reason)")
    }

    /// And the other way round: under the default profile (the size table's 1 KB), a reference
    /// built to the Mesh section's 2048 bytes accepts 1025 bytes and fails.
    @Test("a reference built to the other reading fails the size table's case")
    func otherReading() async throws {
        let item = try #require(Self.cases.first { $0.id.rawValue == "BFT/SIZE/BI-02" })
        let rebuilt = try await Self.run(item, defects: [], limits: Self.meshSectionLimits)
        #expect(rebuilt.verdict == .fail, "BFT/SIZE/BI-02 on a reference built to the Mesh section: \(rebuilt.verdict) \(rebuilt.reason)")
    }

    /// Every set-up failure is an error, never inconclusive: a subject that reports no event
    /// at all (it never connects) errs in every case that needs a connection.
    @Test("a subject that never reports a connection makes its cases errors",
          arguments: ["BFT/OPT/BV-01", "BFT/SEC/BV-03", "BFT/SIZE/BI-01"])
    func muteSubject(id: String) async throws {
        let item = try #require(Self.cases.first { $0.id.rawValue == id })
        let outcome = try await Self.run(item, defects: [.mute])
        #expect(outcome.verdict == .error, "\(id) with a mute subject: \(outcome.verdict) \(outcome.reason)")
        #expect(outcome.reason.contains("precondition connection not met"), "\(outcome.reason)")
        let declared = try await Self.run(item, defects: [.mute], optional: [.connection])
        #expect(declared.verdict == .notApplicable, "\(id) with connection declared optional: \(declared.verdict)")
        #expect(declared.reason.contains("declared optional"), "\(declared.reason)")
    }

    /// The cases no implementation could show on this harness report not-applicable, naming why.
    @Test("the unjudgeable cases are not applicable, with their reason")
    func unjudgeable() async throws {
        let catalogue = try Fixtures.catalogue()
        for item in NotApplicableCase.all {
            let entry = try #require(catalogue.entries.first { $0.id == item.id })
            let context = CaseContext(entry: entry, profile: try Fixtures.defaultProfile(), hosts: [], captures: [], radio: nil,
                                      transmitterProvider: nil, transferFaults: .none, log: CaseLog())
            let outcome = try await item.run(context)
            #expect(outcome.verdict == .notApplicable && outcome.reason.contains("no interface"), "\(item.id): \(outcome.verdict) \(outcome.reason)")
        }
    }

    static var meshSectionLimits: TransmitterLimits {
        var limits = TransmitterLimits.documented
        limits.meshLimitSource = .meshSection
        return limits
    }

    /// Runs `item` on the reference with `defects`. The mesh-section SIZE cases run under a
    /// profile applying the Mesh section's 2048 bytes, on a reference built to that reading
    /// unless `limits` says otherwise.
    static func run(_ item: any TransmitterCase, defects: Set<Defect>, limits: TransmitterLimits? = nil,
                    optional: [Precondition] = []) async throws -> CaseOutcome {
        // The mesh-section SIZE cases apply the Mesh section's 2048 bytes: run them under a
        // profile that applies it (under the default one they are not applicable).
        var profile = try Fixtures.defaultProfile()
        var subjectLimits = limits ?? .documented
        if let size = item as? SizeCase, size.limit == .meshSection {
            let text = Fixtures.defaultProfileText.replacingOccurrences(
                of: "mesh_dictionary_ble_applied: size_table", with: "mesh_dictionary_ble_applied: mesh_section")
            profile = try Profile(yaml: text, path: Fixtures.defaultProfilePath)
            subjectLimits = limits ?? Self.meshSectionLimits
        }
        // No document gives the expiration limit's default (the profile's is null): BFT/SEC/BV-13
        // runs under a profile naming the reference's own.
        if item.id == "BFT/SEC/BV-13" {
            let text = Fixtures.defaultProfileText.replacingOccurrences(
                of: "expiration_limit_default: null", with: "expiration_limit_default: \(SessionRecord.defaultSecureConnectionExpirationLimit)")
            profile = try Profile(yaml: text, path: Fixtures.defaultProfilePath)
        }
        profile = profile.declaringOptional(optional)
        let (chosenProfile, chosenLimits) = (profile, subjectLimits)
        // The log level is process-wide: the LOG cases hold the gate LoggingLevelTests holds.
        if item.id.rawValue.hasPrefix("BFT/LOG/") {
            return try await ExclusiveGate.transmitterLogLevel.exclusive {
                try await runAlone(item, defects: defects, profile: chosenProfile, subjectLimits: chosenLimits)
            }
        }
        return try await runAlone(item, defects: defects, profile: profile, subjectLimits: subjectLimits)
    }

    static func runAlone(_ item: any TransmitterCase, defects: Set<Defect>, profile: Profile,
                         subjectLimits: TransmitterLimits) async throws -> CaseOutcome {
        let folder = try Fixtures.folder("bft")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalogue = try Fixtures.catalogue()
        let entry = try #require(catalogue.entries.first { $0.id == item.id })
        let range = try item.needs.radioScenario.map { try RadioScenario.load(yaml: $0).model }
        let provider = ReferenceTransmitterProvider(link: .simulated(range: range), defects: defects, subjectLimits: subjectLimits,
                                                    sessionRoot: URL(fileURLWithPath: folder), executable: Fixtures.blueproofExecutable)
        let context = CaseContext(entry: entry, profile: profile, hosts: [], captures: [], radio: nil,
                                  transmitterProvider: provider, transferFaults: .none, log: CaseLog())
        var outcome = try await item.run(context)
        await provider.release(for: context)
        outcome.reason += "\n" + context.log.all.joined(separator: "\n")
        return outcome
    }
}
