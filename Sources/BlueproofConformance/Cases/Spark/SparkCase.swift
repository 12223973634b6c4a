import BlueproofControl
import BlueproofSpark

/// An SPK case: a script over a ``SparkStage`` whose subject comes from a ``SparkProvider``
/// (the reference unless the case was built with a variant's), judged on the subject's
/// callbacks and on what its testers received. `brokenBy` names the defect of the reference
/// that breaks exactly the rule the case checks.
struct SparkCase: ConformanceCase {
    let id: CaseID
    let testers: Int
    /// Whether the last tester is the first restarted (``SparkStage/make(_:provider:application:testers:restarted:)``).
    let restarts: Bool
    let application: SparkApplication
    let brokenBy: SparkDefects
    let provider: (any SparkProvider)?
    let script: @Sendable (SparkStage) async throws -> CaseOutcome

    init(_ id: CaseID, testers: Int = 1, restarts: Bool = false, application: SparkApplication = .api, brokenBy: SparkDefects,
         provider: (any SparkProvider)? = nil, _ script: @escaping @Sendable (SparkStage) async throws -> CaseOutcome) {
        self.id = id
        self.testers = testers
        self.restarts = restarts
        self.application = application
        self.brokenBy = brokenBy
        self.provider = provider
        self.script = script
    }

    var needs: CaseNeeds {
        var needs = CaseNeeds(controllers: testers + 1, linksPerNode: testers)
        needs.controlSubject = true  // issue 17: an implementation under test plays node 0
        // A transfer the subject never ends fails at its wait (`SparkStage.transferTimeout`),
        // inside the case's time, instead of the case timing out as an error.
        needs.timeout = SparkStage.transferTimeout + .seconds(60)
        return needs
    }

    /// The same case with its subject from `provider`.
    func with(_ provider: any SparkProvider) -> SparkCase {
        SparkCase(id, testers: testers, restarts: restarts, application: application, brokenBy: brokenBy, provider: provider, script)
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        // An implementation under test is judged itself or not at all: never the reference in its place.
        var subjects = provider ?? ReferenceSparkProvider()
        if provider == nil, let transmitters = context.transmitterProvider, transmitters.isDeviceUnderTest {
            guard let theirs = transmitters.sparkProvider else {
                return .notApplicable("\(transmitters.name) offers no Spark subject: its cases need the control protocol's Spark commands (docs/control-protocol.md, \"Spark data connections\")")
            }
            subjects = theirs
        }
        let stage = try await SparkStage.make(context, provider: subjects, application: application, testers: testers, restarted: restarts)
        var outcome: CaseOutcome
        do {
            outcome = try await script(stage)
        } catch let verdict as SparkVerdict {
            outcome = verdict.outcome
        } catch let failure as StageFailure {
            outcome = failure.outcome(optional: context.optionalPreconditions)
        } catch let refusal as SparkError {
            outcome = .fail("the subject refused: \(refusal)")
        } catch {
            await stage.stop()
            throw error
        }
        // Whatever the case's rule, a frame of the subject's that its peer could not read fails it.
        if [.pass, .inconclusive].contains(outcome.verdict), let unreadable = Self.unreadable(stage) { outcome = .fail(unreadable) }
        // A control channel that broke mid-case: nothing it reported can be trusted.
        if let subject = stage.subject as? ControlSparkSubject, let failure = await subject.client.failure {
            outcome = .error("the control channel to the implementation failed mid-case: \(failure.detail ?? failure.summary)")
        }
        await stage.stop()
        return outcome.unlessOverflowed([stage.subject.events.overflow] + stage.testers.map(\.events.overflow))
    }
}

extension SparkCase {
    /// The first frame of the subject's a tester could not read (docs/spark-wire.md, "Header"
    /// and "Exchange": ignored as malformed, or an offer declined as malformed), nil when none.
    static func unreadable(_ stage: SparkStage) -> String? {
        let subject = stage.subject.registrationID
        for tester in stage.testers {
            for event in tester.events.events {
                switch event {
                case let .ignored(peer, .malformed(error)) where peer == subject:
                    return "the subject sent a frame its peer could not read (docs/spark-wire.md, \"Header\"): \(error)"
                case _ where SparkStage.declinedAsMalformed(event, offeredBy: subject) != nil:
                    return "the subject's offer was declined as malformed (docs/spark-wire.md, \"Exchange\"): \(event)"
                default: continue
                }
            }
        }
        return nil
    }
}

/// Every SPK case the runner has, in catalogue order.
public enum SparkCases {
    /// The cases, with their subject from `provider` (nil: the reference, or not applicable on
    /// an implementation under test).
    public static func all(provider: (any SparkProvider)? = nil) -> [any ConformanceCase] {
        let cases = SparkConnectionCases.all + SparkStreamCases.all + SparkFileCases.all
        return (provider.map { provider in cases.map { $0.with(provider) } } ?? cases) + unjudgeable
    }

    /// The SPK cases not-applicable on every implementation, with their reason.
    static let unjudgeable: [any ConformanceCase] = [NotApplicableCase.sparkPush, NotApplicableCase.sparkSilent]

    /// The defect that breaks each case, by id.
    public static var brokenBy: [CaseID: SparkDefects] {
        Dictionary((SparkConnectionCases.all + SparkStreamCases.all + SparkFileCases.all).map { ($0.id, $0.brokenBy) }, uniquingKeysWith: { first, _ in first })
    }
}
