import BlueproofAsync
import BlueproofHost
import BlueproofTransfer

/// CBT/CLEAN/BV-01: after a complete transfer the central unsubscribes and disconnects, so
/// neither node holds a connection (corebluetooth-transfer-sample.md, "When the Central
/// Receives the Data, Update the User Interface").
struct CleanupCase: ConformanceCase {
    let id: CaseID = "CBT/CLEAN/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange)
    /// How long a disconnection may take to be reported once both roles are done.
    static let grace: Duration = .seconds(3)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(1000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed; no transfer to clean up after: \(exchange.centralText)")
        }
        guard case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("\(payload.count) bytes were sent and did not arrive intact: \(exchange.centralText)")
        }
        var open: [String] = []
        for (node, host) in context.hosts.enumerated() {
            for connection in await host.connections {
                let ended = try? await withTimeout(Self.grace, clock: context.clock, what: "the end of \(connection)") { () async -> Bool in
                    _ = await host.waitForDisconnection(connection)
                    return true
                }
                if ended != true { open.append("node \(node): \(connection)") }
            }
        }
        guard open.isEmpty else {
            return .fail("\(open.count) connection(s) still open \(Self.grace) after the transfer: \(open.joined(separator: "; "))",
                         findings: [Finding("the central's commands, or the Disconnect missing among them", capture: context.captures[1])])
        }
        return .pass("no connection left on either node")
    }
}
