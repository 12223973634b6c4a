/// A BFT case written as one script over its stage.
struct ScriptCase: TransmitterCase {
    let id: CaseID
    let nodes: Int
    let brokenBy: Set<Defect>
    let judgesRefusals: Bool
    let script: @Sendable (TransmitterStage) async throws -> CaseOutcome

    init(_ id: CaseID, nodes: Int, brokenBy: Set<Defect>, judgesRefusals: Bool = false,
         _ script: @escaping @Sendable (TransmitterStage) async throws -> CaseOutcome) {
        self.id = id
        self.nodes = nodes
        self.brokenBy = brokenBy
        self.judgesRefusals = judgesRefusals
        self.script = script
    }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome { try await script(stage) }
}
