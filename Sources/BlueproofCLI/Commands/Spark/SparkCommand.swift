import ArgumentParser
import BlueproofSpark

/// `blueproof spark`: Spark data connections (spark-data-transfer-readme.md) between two terminals.
struct SparkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spark",
        abstract: "Spark data connections over LE: listen for them, or send a file, a text or a stream.",
        discussion: """
        The Spark data-transfer sample's connections, carried peer to peer over an L2CAP \
        credit-based channel (docs/spark-wire.md). A listener advertises its registration id; \
        a sender finds it, offers a connection, and once it is accepted sends a file, a text \
        (an in-memory data block) or its standard input (a stream on a data channel). Keys are \
        exchanged first, as the sample requires: each side publishes its key id in a key \
        directory shared on this machine (a file per node), and reads the peer's there.

        Two terminals on one btvirt:
          blueproof spark listen --id 7            (prints --controller unix:... for others)
          blueproof spark send --to 7 --file photo.jpg --controller unix:/tmp/blueproof-.../bt-server-le
        """,
        subcommands: [SparkListenCommand.self, SparkSendCommand.self]
    )
}

/// What `spark listen` and `spark send` share: who this node is and where keys live.
struct SparkNodeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("This node's registration id, 1 or more (default: a random one, printed).", valueName: "id"))
    var id: UInt64?

    @Option(name: .long, help: ArgumentHelp("The key folder shared by the nodes on this machine (default: $XDG_DATA_HOME/blueproof/spark-keys).",
                                            valueName: "path"))
    var keys: String?

    func validate() throws {
        if id == 0 { throw ValidationError("--id must be 1 or more: 0 names no node on the wire") }
    }

    /// `--id`, or a fresh random one: resolve it once per command.
    func resolveRegistrationID() -> UInt64 { id ?? UInt64.random(in: 1...(1 << 48)) }
    var directory: SparkKeyDirectory { SparkKeyDirectory(path: keys ?? SparkKeyDirectory.defaultPath()) }
}
