import BlueproofBackend

/// Which cases `run --jobs N` starts when, sans I/O (issue 14, "Concurrent cases"): up to N
/// working cases at once, each on its own controllers. A case that spends seconds in a quiet
/// window (``CaseNeeds/quietWindow``) holds no processor while it waits, so with N of 2 or more
/// up to ``waitingPerJob`` × N such cases also wait beside the N working ones, and they start
/// first, the longest wait first. A case that touches state the whole process shares runs with
/// nothing beside it; with N of 2 or more those cases run first, before any other starts, so
/// that no long quiet window has to end before them. With `--jobs 1` cases run one at a time
/// in catalogue order. The runner reports results in catalogue order whatever order they end
/// in.
struct CaseSchedule: Sendable {
    enum Kind: Sendable, Equatable {
        /// Shares the process with other cases and works most of its time.
        case works
        /// Shares the process and spends most of its time in a quiet window this long.
        case waits(Duration)
        /// Runs with no other case beside it.
        case alone
    }

    /// Per planned run, in order, how it is scheduled.
    let kinds: [Kind]
    let jobs: Int
    /// Quiet windows that may wait at once per job. They hold no processor, but each still
    /// works before and after its window (controllers, transmitters, a connection), so they are
    /// not unbounded: at 3 per job every quiet window of the catalogue has ended 20 s before
    /// its working cases on 2 cores (docs/runner.md, "Timings").
    static let waitingPerJob = 3
    /// Planned runs not started yet, in order.
    private var pending: [Int]
    private var working: Set<Int> = []
    private var waiting: Set<Int> = []
    private var aloneRunning = false

    init(_ kinds: [Kind], jobs: Int) {
        self.jobs = max(1, jobs)
        // One at a time means one at a time: a quiet window waits its turn like any case.
        self.kinds = self.jobs == 1 ? kinds.map { if case .waits = $0 { .works } else { $0 } } : kinds
        // Alone cases first (each still alone): beside nothing, they wait for nothing.
        pending = self.jobs == 1 ? Array(kinds.indices)
            : kinds.indices.filter { kinds[$0] == .alone } + kinds.indices.filter { kinds[$0] != .alone }
    }

    /// The runs to start now.
    mutating func startable() -> [Int] {
        var started: [Int] = []
        while !aloneRunning, let first = pending.first {
            if kinds[first] == .alone {
                guard working.isEmpty, waiting.isEmpty else { break }
                aloneRunning = true
                started.append(pending.removeFirst())
                break
            }
            // Only the runs before the next alone one may start.
            let segment = pending.prefix { kinds[$0] != .alone }
            if waiting.count < jobs * Self.waitingPerJob, let next = Self.longestWait(in: segment, kinds) {
                waiting.insert(next)
                started.append(next)
            } else if working.count < jobs, let next = segment.first(where: { kinds[$0] == .works }) ?? Self.longestWait(in: segment, kinds) {
                // With nothing working left to start, a waiting case takes a working slot too.
                working.insert(next)
                started.append(next)
            } else {
                break
            }
            pending.removeAll { $0 == started.last }
        }
        return started
    }

    /// The run in `segment` with the longest quiet window (the first of equals), if any waits.
    private static func longestWait(in segment: ArraySlice<Int>, _ kinds: [Kind]) -> Int? {
        var best: (index: Int, window: Duration)?
        for index in segment {
            guard case let .waits(window) = kinds[index] else { continue }
            if best.map({ window > $0.window }) ?? true { best = (index, window) }
        }
        return best?.index
    }

    /// Run `index` ended.
    mutating func finished(_ index: Int) {
        working.remove(index)
        waiting.remove(index)
        if kinds[index] == .alone { aloneRunning = false }
    }

    /// How `item` is scheduled in a run with `config`.
    static func kind(of item: any ConformanceCase, in config: RunConfiguration) -> Kind {
        if runsAlone(item, in: config) != nil { return .alone }
        return item.needs.quietWindow.map { .waits($0) } ?? .works
    }

    /// Why `item` cannot share the process with another case in this run, or nil when it can.
    static func runsAlone(_ item: any ConformanceCase, in config: RunConfiguration) -> String? {
        if let state = item.needs.processWideState { return state }
        if config.dut != nil || config.dutExec != nil || config.airDevice != nil {
            return "the run has one implementation under test (its ports, its console)"
        }
        if case .transport = config.controller, item.needs.controllers > 0 {
            return "its controllers come from the one backend --controller names, not from one started for the case"
        }
        return nil
    }
}
