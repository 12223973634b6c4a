import BlueproofBackend

/// Which cases `run --jobs N` starts when, sans I/O (issue 14, "Concurrent cases"): up to N at
/// once, in catalogue order, each on its own controllers; a case that touches state the whole
/// process shares runs with no other beside it (the cases before it finish first, the ones
/// after it wait). The runner reports results in catalogue order whatever order they end in.
struct CaseSchedule: Sendable {
    /// Per planned run, in order: whether it must run alone.
    let alone: [Bool]
    let jobs: Int
    private var next = 0
    private var running: Set<Int> = []
    private var aloneRunning = false

    init(alone: [Bool], jobs: Int) {
        self.alone = alone
        self.jobs = max(1, jobs)
    }

    /// The runs to start now, in order.
    mutating func startable() -> [Int] {
        var started: [Int] = []
        while next < alone.count, running.count < jobs, !aloneRunning {
            if alone[next] {
                guard running.isEmpty else { break }
                aloneRunning = true
            }
            running.insert(next)
            started.append(next)
            next += 1
        }
        return started
    }

    /// Run `index` ended.
    mutating func finished(_ index: Int) {
        running.remove(index)
        if alone[index] { aloneRunning = false }
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
