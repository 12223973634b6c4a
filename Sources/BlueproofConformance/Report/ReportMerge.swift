/// `blueproof report merge`: the reports of one suite's shards joined into one run report.
/// Every input must have this build's schema version; cases keep the order of their inputs.
public enum ReportMerge {
    public static func merge(_ reports: [RunReport]) throws(ReportError) -> RunReport {
        guard var merged = reports.first else { throw .nothingToMerge }
        merged.runID = reports.map(\.runID).joined(separator: "+")
        merged.shard = nil
        merged.startedAt = reports.map(\.startedAt).min() ?? merged.startedAt
        let ends = reports.compactMap(\.endedAt)
        merged.endedAt = ends.count == reports.count ? ends.max() : nil
        merged.cases = reports.flatMap(\.cases)
        merged.filter = Array(Set(reports.flatMap(\.filter))).sorted()
        return merged
    }
}
