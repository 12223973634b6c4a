import BlueproofCapture
import BlueproofCheck
import Foundation

/// `blueproof check --output`: the capture cases (``CaptureCase``) on captures recorded
/// anywhere, as a run with the same verdicts and the same four reports as `blueproof run`.
public enum CaptureRun {
    /// Judges every capture case in `catalogue` on `captures`; unreadable captures are
    /// skipped by the caller (they make `check` exit 2).
    public static func report(captures: [CaptureFile], catalogue: Catalogue, profile: Profile,
                              runID: String = RunConfiguration.newRunID(), options: CheckOptions = CheckOptions()) -> RunReport {
        let start = ContinuousClock.now
        var report = RunReport(runID: runID, startedAt: Date(), profile: .init(name: profile.name, path: profile.path),
                               controller: "none (captures: \(captures.count))")
        let results = captures.flatMap { capture in
            CaptureAnalyser.check(capture, options: options).map { (capture: capture.path, check: $0) }  // issue 16: frames as the file numbers them
        }
        for item in CaptureCase.all {
            guard let entry = catalogue.entry(item.id) else { continue }
            let log = CaseLog()
            for capture in captures where capture.truncated != nil {
                log.note("\(capture.path): truncated, checked up to its last complete packet")
            }
            let outcome = item.judge(results)
            report.cases.append(CaseResult(entry: entry, outcome: outcome, duration: ContinuousClock.now - start,
                                           captures: captures.map(\.path), log: log.excerpt))
        }
        report.endedAt = RunReport.timestamp(Date())
        return report
    }
}
