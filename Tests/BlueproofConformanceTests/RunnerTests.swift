@testable import BlueproofConformance
import Foundation
import Testing

/// The runner's decisions that need no controller: preflight gaps and `--dut`.
@Suite("Runner without controllers")
struct RunnerTests {
    /// Test only: a transmitter case, as the BFT cases will be.
    struct NeedsTransmitters: ConformanceCase {
        let id: CaseID = "TEST/DUT/BV-01"
        let needs = CaseNeeds(transmitters: 2)
        func run(_ context: CaseContext) async throws -> CaseOutcome {
            _ = try await context.transmitters(2)
            return .pass("ran")
        }
    }

    static let testGroup = """

          - code: TEST/DUT
            title: "Test only"
            cases:
              - id: TEST/DUT/BV-01
                title: "A case driving two transmitters"
                source: {document: bridgefy-ios-sdk-readme.md, section: "Usage"}
                kind: api
                profile: []
                status: implemented

        """

    func configuration(dut: String?, in folder: String) throws -> RunConfiguration {
        try Fixtures.runConfiguration(cases: [NeedsTransmitters()], testGroup: Self.testGroup, in: folder, dut: dut)
    }

    @Test("with --dut and nothing answering there, a transmitter case is an error naming the address; the run fails")
    func dutUnreachable() async throws {
        let folder = try Fixtures.folder("runner-dut")
        var config = try configuration(dut: "tcp:127.0.0.1:7000", in: folder)
        config.transmitterProvider = DUTTransmitterProvider(address: .tcp(host: "127.0.0.1", port: 7000),
                                                            sessionRoot: URL(fileURLWithPath: "\(folder)/sessions"))
        let report = try await Runner(config).run()
        #expect(report.cases.map(\.verdict) == [.error])
        #expect(report.cases.first?.reason.contains("tcp:127.0.0.1:7000 does not answer") == true, "\(report.cases.first?.reason ?? "")")
        #expect(report.failed && report.result == .failed)
        for name in ReportWriter.files {
            #expect(FileManager.default.fileExists(atPath: "\(config.reportFolder)/\(name)"), "\(name)")
        }
    }

    @Test("without a transmitter provider, a transmitter case is an error naming why")
    func noProvider() async throws {
        let folder = try Fixtures.folder("runner-provider")
        let report = try await Runner(try configuration(dut: nil, in: folder)).run()
        #expect(report.cases.map(\.verdict) == [.error])
        #expect(report.cases.first?.reason.contains("no transmitter provider") == true, "\(report.cases)")
    }

    @Test("the run's work folder is gone when the run ends, and stays when kept")
    func workFolder() async throws {
        let folder = try Fixtures.folder("runner-work")
        var config = try configuration(dut: nil, in: folder)
        try FileManager.default.createDirectory(atPath: "\(config.workDirectory)/sessions", withIntermediateDirectories: true)
        _ = try await Runner(config).run()
        #expect(!FileManager.default.fileExists(atPath: config.workDirectory))

        config.keepWorkDirectory = true
        try FileManager.default.createDirectory(atPath: "\(config.workDirectory)/sessions", withIntermediateDirectories: true)
        _ = try await Runner(config).run()
        #expect(FileManager.default.fileExists(atPath: "\(config.workDirectory)/sessions"))
    }

    @Test("the preflight's findings make a case not-applicable, with the reason")
    func preflightGaps() {
        let preflight = Preflight(backend: "hci0", controllerLimit: 1, features: [], facts: [])
        #expect(preflight.missing(CaseNeeds(controllers: 2)) == "needs 2 controllers; hci0 gives 1")
        #expect(preflight.missing(CaseNeeds(controllers: 1, features: [.extendedAdvertising]))
            == "the controller lacks extended-advertising")
        #expect(preflight.missing(CaseNeeds(controllers: 1)) == nil)
        let busy = Preflight(backend: "btvirt", controllerLimit: 16, linkLimit: 2, linkLimitReason: "handles", features: [], facts: [])
        #expect(busy.missing(CaseNeeds(controllers: 7, linksPerNode: 5)) == "needs 5 links on one controller; handles")
        #expect(busy.missing(CaseNeeds(controllers: 3, linksPerNode: 2)) == nil)
    }

    @Test("the runner refuses a case missing from the catalogue")
    func uncatalogued() async throws {
        let folder = try Fixtures.folder("runner-uncatalogued")
        var config = try configuration(dut: nil, in: folder)
        config.catalogue = try Fixtures.catalogue()
        await #expect(throws: RunEnvironmentError.self) { try await Runner(config).run() }
    }
}
