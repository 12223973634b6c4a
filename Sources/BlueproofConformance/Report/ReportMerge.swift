/// `blueproof report merge`: the reports of one suite's shards joined into one run report.
/// Every input must have this build's schema version. Cases come in catalogue order
/// (`order`; cases it does not name last, in input order), repetitions in order.
///
/// A case judged twice the same way (same id and repetition, from two inputs on the same
/// controller: the same shard merged twice, or two runs of overlapping filters) is refused, so
/// counts never double. A `blueproof check` of a run's captures is another judgment (its
/// controller is none) and is kept beside the run's.
public enum ReportMerge {
    /// `sources` names each report (its folder) for the errors; empty names them by position.
    public static func merge(_ reports: [RunReport], sources: [String] = [], order: [CaseID] = [])
        throws(ReportError) -> RunReport {
        guard var merged = reports.first else { throw .nothingToMerge }
        let names = reports.indices.map { $0 < sources.count ? sources[$0] : "input \($0 + 1)" }
        struct Key: Hashable { var id: CaseID; var repetition: Int; var controller: String }
        var firstSeen: [Key: Int] = [:]
        for (index, report) in reports.enumerated() {
            for item in report.cases {
                let key = Key(id: item.id, repetition: item.repetition, controller: report.controller)
                if let earlier = firstSeen[key], earlier != index {
                    throw .duplicateCase(id: item.id.rawValue, repetition: item.repetition,
                                         first: names[earlier], second: names[index])
                }
                firstSeen[key] = index
            }
        }
        merged.runID = reports.map(\.runID).joined(separator: "+")
        merged.shard = nil
        merged.startedAt = reports.map(\.startedAt).min() ?? merged.startedAt
        let ends = reports.compactMap(\.endedAt)
        merged.endedAt = ends.count == reports.count ? ends.max() : nil
        let rank = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let cases = reports.flatMap(\.cases).enumerated().sorted { left, right in
            (rank[left.element.id] ?? .max, left.element.repetition, left.offset)
                < (rank[right.element.id] ?? .max, right.element.repetition, right.offset)
        }
        merged.cases = cases.map(\.element)
        merged.filter = Array(Set(reports.flatMap(\.filter))).sorted()
        return merged
    }
}
