import BlueproofConformance
import Testing

@Suite("Catalogue and registry")
struct CatalogueRegistryTests {
    @Test("the catalogue loads with Yams: 279 cases in their groups")
    func loads() throws {
        let catalogue = try Fixtures.catalogue()
        #expect(catalogue.version == 1)
        #expect(catalogue.entries.count >= 279)
        let entry = try #require(catalogue.entry("CBT/CHUNK/BV-01"))
        #expect(entry.source.document == "corebluetooth-transfer-sample.md")
        #expect(entry.citation.contains("Send the Data"))
        #expect(entry.id.group == "CBT/CHUNK")
        #expect(entry.id.pathComponent == "CBT_CHUNK_BV-01")
    }

    @Test("every implemented case is in the catalogue, marked implemented, with a runner check")
    func registered() throws {
        let catalogue = try Fixtures.catalogue()
        let registry = CaseRegistry.standard(profile: try Fixtures.defaultProfile())
        #expect(registry.uncatalogued(in: catalogue).isEmpty)
        #expect(Set(registry.ids).count == registry.ids.count, "an id registered twice")
        for id in registry.ids {
            let entry = try #require(catalogue.entry(id))
            #expect(entry.status == "implemented", "\(id)")
            #expect(entry.check?.contains {
                $0.hasPrefix("Tests/IntegrationTests/RunCaseTests.swift#") || $0.hasPrefix("Tests/IntegrationTests/RunTransmitterTests.swift#")
                    || $0.hasPrefix("Tests/BlueproofConformanceTests/TransmitterCaseTests.swift#")
                    // issue 17: the SPK cases
                    || $0.hasPrefix("Tests/IntegrationTests/RunSparkTests.swift#")
                    // issue 18: Bluenet
                    || $0.hasPrefix("Tests/IntegrationTests/RunBluenetTests.swift#")
            } == true, "\(id): the catalogue does not name the runner's test")
        }
        for item in CaptureCase.all { #expect(catalogue.entry(item.id) != nil, "\(item.id)") }
    }

    @Test("a case missing from the catalogue is found")
    func uncatalogued() throws {
        struct Stray: ConformanceCase {
            let id: CaseID = "CBT/ZZZ/BV-99"
            let needs = CaseNeeds()
            func run(_ context: CaseContext) async throws -> CaseOutcome { .pass("") }
        }
        #expect(CaseRegistry([Stray()]).uncatalogued(in: try Fixtures.catalogue()) == ["CBT/ZZZ/BV-99"])
    }
}
