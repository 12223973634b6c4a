import ArgumentParser
import BlueproofConformance

struct ReportMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the reports of several runs (the shards of one suite) into one.",
        discussion: """
        Each DIR is a report folder of `blueproof run` (holding report.json). Writes the four \
        report files into --output. Refuses reports of another schema version. Exit status, as \
        for `blueproof run`: 0 the merged run passed, 1 a case failed or erred, 2 a folder that \
        cannot be read or merged, 4 not passed (nothing failed, but a case was inconclusive or \
        none was judged).

        Example:
          blueproof report merge shard-1/Reports/* shard-2/Reports/* --output Reports/all
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
        do {
            var reports: [RunReport] = []
            for folder in folders { reports.append(try ReportWriter.read(folder: folder)) }
            merged = try ReportMerge.merge(reports)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        try ReportWriter(folder: output).write(merged)
        Console.line("merged \(folders.count) report(s): \(merged.summaryLine)")
        if merged.result != .passed { throw ExitCode(merged.result.exitStatus) }
    }
}
