import Dispatch
import Synchronization

/// Keeps a run's report files current without holding the run up (docs/runner.md, step 6):
/// the runner posts the report after every case, and a serial queue of its own writes the
/// newest one posted, skipping those a later one replaced while it wrote. Written in the
/// runner's loop after every case, the four files held up the start of the next cases for
/// 8.5 s of a 60 s release run of the catalogue at `--jobs 2`. A run killed at any moment still
/// finds a whole report (``ReportWriter``) holding every case but those that ended while it was
/// being written. `report.html`, the largest file, is rebuilt at most every `htmlInterval`.
final class ReportUpdates: Sendable {
    private struct State {
        var pending: RunReport?
        var draining = false
        var htmlWritten: ContinuousClock.Instant
    }

    private let writer: ReportWriter
    private let htmlInterval: Duration
    private let queue = DispatchQueue(label: "blueproof.report-updates")
    private let state: Mutex<State>

    init(writer: ReportWriter, htmlInterval: Duration) {
        self.writer = writer
        self.htmlInterval = htmlInterval
        state = Mutex(State(htmlWritten: .now))
    }

    /// Queues `report` to be written, in place of any posted before that is not being written yet.
    func post(_ report: RunReport) {
        let start = state.withLock { state in
            state.pending = report
            defer { state.draining = true }
            return !state.draining
        }
        if start { queue.async { self.drain() } }
    }

    /// Waits until every posted report was written or replaced, then writes `report`, every file.
    func finish(_ report: RunReport) async throws {
        await settled()
        try writer.write(report)
    }

    /// Returns once every report posted before the call was written or replaced: the queue
    /// runs a drain started by `post` before this block.
    func settled() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }

    private func drain() {
        while let (report, html) = state.withLock({ state -> (RunReport, Bool)? in
            guard let report = state.pending else {
                state.draining = false
                return nil
            }
            state.pending = nil
            let html = state.htmlWritten.duration(to: .now) >= htmlInterval
            if html { state.htmlWritten = .now }
            return (report, html)
        }) {
            // As before this type: a failed update leaves the previous files; the final write throws.
            try? writer.write(report, html: html)
        }
    }
}
