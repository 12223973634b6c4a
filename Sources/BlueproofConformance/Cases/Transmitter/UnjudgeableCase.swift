/// A catalogued behaviour no implementation could show on this harness, through any interface
/// it could offer: the runner lists it and reports it not applicable with the precise reason,
/// rather than leaving it silent or faking a verdict.
struct UnjudgeableCase: ConformanceCase {
    let id: CaseID
    let reason: String
    var needs: CaseNeeds { CaseNeeds() }

    func run(_ context: CaseContext) async throws -> CaseOutcome { .notApplicable(reason) }

    static func all() -> [UnjudgeableCase] {
        [
            // bridgefy-ios-sdk-readme.md, "iOS Simulator".
            UnjudgeableCase(id: "BFT/LIFE/BI-04", reason: """
                the rule is about the iOS Simulator, where the framework builds but never starts; \
                this harness runs implementations on Linux against virtual controllers, has no \
                simulator to put one on, and no interface an implementation offers (its SDK \
                calls, the control protocol) can move it onto one or tell it that it is on one
                """),
        ]
    }
}
