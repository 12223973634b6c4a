import ArgumentParser

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput on real controllers.",
        discussion: """
        Benchmarks print figures; they never pass or fail on speed. Machines are shared and \
        noisy, so compare figures measured in one run.
        """,
        subcommands: [BenchNotificationsCommand.self, BenchTransferCommand.self, BenchSparkCommand.self, BenchMeshCommand.self, BenchCaptureCommand.self,
                      BenchInspectCommand.self]
    )
}
