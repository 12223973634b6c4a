@testable import BlueproofConformance
import BlueproofRadio
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
    static let inProcess = cases.filter { !($0 is PlaintextCase) }

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
    }

    static func run(_ item: any TransmitterCase, defects: Set<Defect>) async throws -> CaseOutcome {
        let folder = try Fixtures.folder("bft")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalogue = try Fixtures.catalogue()
        let entry = try #require(catalogue.entries.first { $0.id == item.id })
        // The mesh-section SIZE cases apply the Mesh section's 2048 bytes: run them under a
        // profile that applies it (under the default one they are not applicable).
        var profile = try Fixtures.defaultProfile()
        if let size = item as? SizeCase, size.limit == .meshSection {
            let text = Fixtures.defaultProfileText.replacingOccurrences(
                of: "mesh_dictionary_ble_applied: size_table", with: "mesh_dictionary_ble_applied: mesh_section")
            profile = try Profile(yaml: text, path: Fixtures.defaultProfilePath)
        }
        let range = try item.needs.radioScenario.map { try RadioScenario.load(yaml: $0).model }
        let provider = ReferenceTransmitterProvider(link: .simulated(range: range), defects: defects, sessionRoot: URL(fileURLWithPath: folder),
                                                    executable: Fixtures.blueproofExecutable)
        let context = CaseContext(entry: entry, profile: profile, hosts: [], captures: [], radio: nil,
                                  transmitterProvider: provider, transferFaults: .none, log: CaseLog())
        var outcome = try await item.run(context)
        await provider.release(for: context)
        outcome.reason += "\n" + context.log.all.joined(separator: "\n")
        return outcome
    }
}
