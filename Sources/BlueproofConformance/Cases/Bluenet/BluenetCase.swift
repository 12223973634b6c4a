import BlueproofBluenet

/// A BLN case (issue 18): one script over a ``BluenetStage`` whose subject, on node 0, is the
/// provider's Bluenet library; the other nodes are testers (plain advertisers, simulated
/// Crownstones). `brokenBy` names the variant that fails it.
struct BluenetCase: ConformanceCase {
    let id: CaseID
    let nodes: Int
    let brokenBy: Set<Defect>
    /// A radio-proxy scenario the nodes run behind (RSSI and repeated reports), nil for none.
    let radioScenario: String?
    /// The least time the case needs (a wait about time longer than the usual), nil for the default.
    var timeout: Duration?
    /// An idle real-time wait the case makes (``CaseNeeds/quietWindow``), nil for none.
    var quietWindow: Duration?
    let script: @Sendable (BluenetStage) async throws -> CaseOutcome

    init(_ id: CaseID, nodes: Int, brokenBy: Set<Defect>, radioScenario: String? = nil, quietWindow: Duration? = nil,
         _ script: @escaping @Sendable (BluenetStage) async throws -> CaseOutcome) {
        self.id = id
        self.nodes = nodes
        self.brokenBy = brokenBy
        self.radioScenario = radioScenario
        self.quietWindow = quietWindow
        self.script = script
    }

    var needs: CaseNeeds { CaseNeeds(controllers: nodes, radioScenario: radioScenario, timeout: timeout, quietWindow: quietWindow) }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard let provider = context.transmitterProvider else { throw MissingTransmitterProvider() }
        let subject: any BluenetControl
        do {
            subject = try await provider.bluenet(on: 0, for: context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable(unavailable.reason)
        }
        let stage = BluenetStage(context: context, subject: subject)
        do {
            let outcome = try await script(stage)
            await stage.stop()
            return outcome
        } catch {
            await stage.stop()
            throw error
        }
    }
}

/// Every BLN case, in catalogue order.
enum BluenetCases {
    static func all() -> [BluenetCase] { BluenetScanCases.all + BluenetConnectionCases.all + BluenetBeaconReadingCases.all + BluenetBeaconCases.all
        + BluenetLocationCases.all }
}
