/// One conformance case: an id from Conformance/catalogue.yaml (which gives its title,
/// citation, kind and profile keys), what it needs, and the check itself.
///
/// `run` returns the verdict; a thrown error is the harness's failure (verdict `error`), not
/// the implementation's. Cases must respond to cancellation: the runner cancels one that
/// passes its timeout.
public protocol ConformanceCase: Sendable {
    var id: CaseID { get }
    var needs: CaseNeeds { get }
    func run(_ context: CaseContext) async throws -> CaseOutcome
}
