import BlueproofTransfer

/// CBT/CHUNK/BI-02: a message that grows past what the central takes makes it give up the way
/// the sample's `cleanup()` does, unsubscribing and disconnecting, and both roles fail
/// (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the User
/// Interface": an error while values update ends in `cleanup()`). The limit is the stimulus:
/// our central is given 10,000 bytes and sent 100,000. Judged on its outcome, its capture (a
/// CCCD write of 0x0000 after the first notification, then its own HCI Disconnect), the
/// peripheral's outcome (no write-back for a refused message) and our nodes' connections. A
/// central under test has no limit the runner can set (the DUT contract has none, and the
/// profile's is the harness default of 64 MiB), so the case has no place for one.
struct PayloadLimitCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BI-02"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange)
    static let limit = 10_000
    static let payloadSize = 100_000

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(Self.payloadSize)
        var profile = TransferExchange.transferProfile(context)
        profile.payloadLimit = Self.limit
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed, so nothing could pass its limit: \(exchange.centralText)")
        }
        guard case .failure(.payloadTooLarge) = exchange.central else {
            return .fail("\(payload.count) bytes were sent to a central that takes \(Self.limit), and it did not refuse them: "
                         + exchange.centralText)
        }
        if case let .success(sent) = exchange.peripheral, let reply = sent.reply {
            return .fail("the peripheral reports a \(reply.count)-byte write-back for a message the central refused")
        }
        if let verdict = CleanupCase.judgeCentral(try CaptureEvidence(path: context.captures[1]), gaveUp: true) {
            return verdict
        }
        let open = await TransferExchange.openConnections(context)
        guard open.isEmpty else {
            return .fail("\(open.count) connection(s) still open after the central gave up: \(open.joined(separator: "; "))",
                         findings: [Finding("the central's commands", capture: context.captures[1])])
        }
        return .pass("the central refused the message past \(Self.limit) bytes, unsubscribed and disconnected; "
                     + "the peripheral: \(exchange.peripheralText)")
    }
}
