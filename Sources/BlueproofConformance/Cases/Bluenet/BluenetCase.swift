import BlueproofBluenet
import BlueproofBluenetHost

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

    var needs: CaseNeeds {
        var needs = CaseNeeds(controllers: nodes, radioScenario: radioScenario, timeout: timeout, quietWindow: quietWindow)
        needs.controlSubject = true  // an implementation under test (--dut-exec, role bluenet) plays node 0
        return needs
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard let provider = context.transmitterProvider else { throw MissingTransmitterProvider() }
        let subject: any BluenetControl
        do {
            subject = try await provider.bluenet(on: 0, for: context)
        } catch let unavailable as TransmitterUnavailable {
            return .notApplicable(unavailable.reason)
        }
        let stage = BluenetStage(context: context, subject: subject)
        let concluded: Result<CaseOutcome, any Error>
        do { concluded = .success(try await script(stage)) } catch { concluded = .failure(error) }
        // Read before stop, which closes the channel: a call made over a failed channel returned
        // no value of the library's, so the case is an error whatever it concluded or threw.
        let failure = await subject.harnessFailure()
        await stage.stop()
        if let failure { return .error(failure) }
        if case let .failure(stopped as BluenetCaseStopped) = concluded { return stopped.outcome }
        let outcome = try concluded.get()
        // A pass rests on what was kept: publications past the log's bound may hold what it forbids.
        if outcome.verdict == .pass, let overflow = subject.publications.overflow {
            return .error("the subject's publications: \(overflow)")
        }
        return outcome
    }
}

/// Every BLN case, in catalogue order.
enum BluenetCases {
    static func all() -> [BluenetCase] { BluenetScanCases.all + BluenetConnectionCases.all + BluenetBeaconReadingCases.all + BluenetBeaconCases.all
        + BluenetLocationCases.all }
}
