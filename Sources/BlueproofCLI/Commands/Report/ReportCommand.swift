import ArgumentParser

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with the reports of `blueproof run`.",
        subcommands: [ReportMergeCommand.self]
    )
}
