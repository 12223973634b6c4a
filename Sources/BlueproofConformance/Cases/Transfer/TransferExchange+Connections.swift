import BlueproofAsync
import BlueproofHost

extension TransferExchange {
    /// How long a disconnection may take to be reported once both roles are done.
    static let disconnectionGrace: Duration = .seconds(3)

    /// The connections still open on our nodes `grace` after the roles are done, each as
    /// "node N: connection" (corebluetooth-transfer-sample.md, "When the Central Receives the
    /// Data, Update the User Interface": `cleanup()` leaves none); empty when every one ended.
    static func openConnections(_ context: CaseContext, grace: Duration = disconnectionGrace) async -> [String] {
        var open: [String] = []
        for (node, host) in context.nodes.enumerated() {
            guard let host else { continue }
            for connection in await host.connections {
                let ended = try? await withTimeout(grace, clock: context.clock, what: "the end of \(connection)") { () async -> Bool in
                    _ = await host.waitForDisconnection(connection)
                    return true
                }
                if ended != true { open.append("node \(node): \(connection)") }
            }
        }
        return open
    }
}
