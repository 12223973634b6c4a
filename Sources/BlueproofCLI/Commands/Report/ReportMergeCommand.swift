import ArgumentParser
import BlueproofConformance

struct ReportMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the reports of several runs (the shards of one suite) into one.",
        discussion: """
        Each DIR is a report folder (holding report.json) or the --output folder given to \
        `blueproof run` (every run folder in it is taken). Writes the four report files into \
        --output, the cases in catalogue order. Refuses reports of another schema version, and \
        a case that two inputs judged the same way (a shard merged twice). Exit status, as \
        for `blueproof run`: 0 the merged run passed, 1 a case failed or erred, 2 a folder that \
        cannot be read or merged, 4 not passed (nothing failed, but a case was inconclusive or \
        none was judged).

        Examples:
          blueproof run --shard 1/2 --output Reports/shard-1
          blueproof run --shard 2/2 --output Reports/shard-2
          blueproof report merge Reports/shard-1 Reports/shard-2 --output Reports/all
        """
    )

    @Argument(help: ArgumentHelp("Report folders to join.", valueName: "dir"))
    var folders: [String]

    @Option(name: .long, help: ArgumentHelp("Folder for the merged reports.", valueName: "dir"))
    var output: String

    func validate() throws {
        guard !folders.isEmpty else { throw ValidationError("give at least one report folder") }
    }

    func run() async throws {
        let merged: RunReport
        var reports: [RunReport] = []
        do {
            var sources: [String] = []
            for folder in folders {
                for reportFolder in try ReportWriter.reportFolders(in: folder) {
                    reports.append(try ReportWriter.read(folder: reportFolder))
                    sources.append(reportFolder)
                }
            }
            let order = try Catalogue.load(path: ConformanceFiles.path(ConformanceFiles.catalogue)).entries.map(\.id)
            merged = try ReportMerge.merge(reports, sources: sources, order: order)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        try ReportWriter(folder: output).write(merged)
        Console.line("merged \(reports.count) report(s): \(merged.summaryLine)")
        if merged.result != .passed { throw ExitCode(merged.result.exitStatus) }
    }
}
