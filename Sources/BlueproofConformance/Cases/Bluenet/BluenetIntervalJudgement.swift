import BlueproofAsync
import Foundation

/// "Once every interval" judged from the times at which the runner heard the subject's events
/// (BLN/BCN/BV-04 ranging rounds, BLN/LOC/BV-02 currentLocation; "Bluenet", ranging once a
/// second), beside the runner's own ticker over the same watch. A loaded machine wakes both
/// late; a subject on another schedule moves only its events.
struct BluenetIntervalJudgement: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        /// At least four events, their median gap within a fifth of the interval, no gap of
        /// 1.9 intervals (a round left out).
        case regular
        /// Not regular, and the runner's own ticker was on time: the subject's schedule.
        case irregular
        /// Not regular, but no more than the ticker's own lateness explains: the machine was
        /// too loaded to judge a schedule (inconclusive, never a pass).
        case disturbed
    }

    /// How late the runner's own ticker woke over a watch: the median and the worst wake-up.
    struct Lateness: Sendable, Equatable {
        var median: Duration
        var worst: Duration
        static let none = Lateness(median: .zero, worst: .zero)
    }

    let verdict: Verdict
    let summary: String

    /// `events`: when each was heard, from the first. The median gap may be off by the ticker's
    /// median lateness (a machine late all along), single gaps and the count by its worst (one
    /// late wake-up), never more.
    init(events: [Duration], interval: Duration, watch: Duration, lateness: Lateness, topic: String) {
        let gaps = zip(events.dropFirst(), events).map { $0 - $1 }
        let median = BlueproofAsync.median(gaps)
        func holds(_ slack: Lateness) -> Bool {
            let missed = Int((slack.worst / interval).rounded(.down))
            guard events.count >= 4 - missed, let median else { return false }
            return median >= interval * 4 / 5 - slack.median && median <= interval * 6 / 5 + slack.median
                && gaps.allSatisfy { $0 < interval * 19 / 10 + slack.worst }
        }
        verdict = holds(.none) ? .regular : holds(lateness) ? .disturbed : .irregular
        let finding = switch verdict {
        case .regular: ""
        case .irregular: ": not one every \(interval)"
        case .disturbed: ": not one every \(interval), but the runner's own ticker woke "
            + String(format: "%.3f s late (median), %.3f s at worst", lateness.median.seconds, lateness.worst.seconds)
            + " in the same watch: too loaded to judge a schedule"
        }
        let shown = gaps.map { String(format: "%.3f s", $0.seconds) }.joined(separator: ", ")
        summary = "\(events.count) \(topic) in \(watch) from the first, gaps [\(shown)]"
            + (median.map { String(format: ", median %.3f s", $0.seconds) } ?? "") + finding
    }

    /// How late a ticker of `step` woke after its deadlines over `watch`, on `clock`.
    static func tickerLateness(over watch: Duration, step: Duration, on clock: ContinuousClock = ContinuousClock()) async -> Lateness {
        let start = clock.now
        var late: [Duration] = []
        var deadline = start + step
        while deadline <= start + watch {
            guard (try? await clock.sleep(until: deadline)) != nil else { break }
            late.append(deadline.duration(to: clock.now))
            deadline += step
        }
        return Lateness(median: BlueproofAsync.median(late) ?? .zero, worst: late.max() ?? .zero)
    }
}

extension CaseOutcome {
    /// Pass when regular, fail when irregular, inconclusive when the machine was too loaded.
    static func judged(_ judgement: BluenetIntervalJudgement, _ what: String) -> CaseOutcome {
        let reason = "\(what): \(judgement.summary)"
        return switch judgement.verdict {
        case .regular: .pass(reason)
        case .irregular: .fail(reason)
        case .disturbed: .inconclusive(reason)
        }
    }
}
