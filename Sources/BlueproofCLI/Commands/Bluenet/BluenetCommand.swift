import ArgumentParser

/// `blueproof bluenet`: the Bluenet library (bluenet-lib-ios-readme.md) on an LE host.
struct BluenetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bluenet",
        abstract: "Bluenet (the Crownstone library) on an LE controller: scan, and a simulated Crownstone.",
        discussion: """
        What the library does on top of BLE (docs/bluenet.md): advertisements decoded as its \
        "advertisementData" event, Crownstones found by their scan response, and a Crownstone \
        plug to find and switch.
        """,
        subcommands: [BluenetScanCommand.self, BluenetCrownstoneCommand.self]
    )
}
