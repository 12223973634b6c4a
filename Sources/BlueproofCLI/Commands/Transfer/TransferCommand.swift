import ArgumentParser

struct TransferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Chunked data transfer between a central and a peripheral, as Apple's Core Bluetooth sample does.",
        discussion: """
        The peripheral advertises the transfer service, the central scans for it, lets it through \
        only when its RSSI passes the gate (at least -50 dBm by default; "not available" fails \
        unless --allow-unavailable-rssi), connects, subscribes, and receives the payload as \
        notifications of ATT_MTU - 3 bytes (at most 512) followed by "EOM"; it writes a reply back without \
        response, unsubscribes and disconnects. --reverse runs it the other way: the central \
        writes the chunks, the peripheral notifies the reply.

        UUIDs are the sample's (service E20A39F4-73F5-4BC4-A12F-17D1AD07A961, characteristic \
        08590F7E-DB05-467E-8757-72F6FAEB13D4), so a phone running the sample app can be the \
        other side.

        Framing: a data chunk is never exactly "EOM" — a last chunk that would be is sent as "EO" \
        then "M" — so any payload, "EOM" inside it included, arrives byte-exact.
        """,
        subcommands: [TransferPeripheralCommand.self, TransferCentralCommand.self, TransferDemoCommand.self]
    )
}
