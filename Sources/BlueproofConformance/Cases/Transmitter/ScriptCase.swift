/// A BFT case written as one script over its stage.
struct ScriptCase: TransmitterCase {
    let id: CaseID
    let nodes: Int
    let brokenBy: Set<Defect>
    let judgesRefusals: Bool
    /// A radio-proxy scenario the nodes run behind (nil: every node in range of every other).
    let radioScenario: String?
    let script: @Sendable (TransmitterStage) async throws -> CaseOutcome
    /// Why the case runs alone (``CaseNeeds/processWideState``), nil when it need not.
    var processWideState: String?
    /// The real-time window the script watches for what must not happen (``CaseNeeds/quietWindow``).
    let quietWindow: Duration?

    init(_ id: CaseID, nodes: Int, brokenBy: Set<Defect>, judgesRefusals: Bool = false, radioScenario: String? = nil,
         quietWindow: Duration? = nil, _ script: @escaping @Sendable (TransmitterStage) async throws -> CaseOutcome) {
        self.id = id
        self.quietWindow = quietWindow
        self.nodes = nodes
        self.brokenBy = brokenBy
        self.judgesRefusals = judgesRefusals
        self.radioScenario = radioScenario
        self.script = script
    }

    var needs: CaseNeeds {
        CaseNeeds(controllers: nodes, radioScenario: radioScenario, transmitters: nodes, processWideState: processWideState,
                  quietWindow: quietWindow)
    }

    /// Node 0 in range of nodes 1 and 2, which are out of range of each other: the subject
    /// holds two links and each tester one.
    static let star = MeshLineCase.scenario(relayFirst: true)

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome { try await script(stage) }
}
