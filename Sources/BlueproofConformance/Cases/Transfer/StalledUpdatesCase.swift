import BlueproofTransfer

/// CBT/CLEAN/BI-03: when the characteristic's updates fail, the central cleans up:
/// unsubscribes and disconnects (corebluetooth-transfer-sample.md, "When the Central Receives
/// the Data, Update the User Interface": an error in `didUpdateValueFor` calls `cleanup()`).
/// On the air the error a central is given is that updates stop: the radio proxy withholds the
/// peripheral's credits from 2 s on, so the notifications stall mid-transfer and the
/// central's wait for the next one ends in error (after 4 s; our peripheral waits 30 s, so the
/// central is the one to act). Judged on the central's outcome, its capture (a CCCD write of
/// 0x0000 after the first notification, then its HCI Disconnect) and our nodes' connections.
struct StalledUpdatesCase: ConformanceCase {
    let id: CaseID = "CBT/CLEAN/BI-03"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.faulted([
        ("peripheral", "buffer-size: {length: 27, count: 4}"), ("peripheral", "withhold-credits: {from: 2s, for: 30s}"),
    ]))

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(4_000_000)
        let profile = TransferExchange.transferProfile(context)
        var patient = profile
        patient.idleTimeout = .seconds(30)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile,
                                                  peripheralProfile: patient)
        for fault in context.radio?.faultLog ?? [] { context.log.note("radio proxy: \(fault)") }
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        guard case let .failure(error) = exchange.central else {
            return .error("the updates never stalled: the central completed \(exchange.centralText)")
        }
        if let verdict = CleanupCase.judgeCentral(try CaptureEvidence(path: context.captures[1]), afterFirst: true) {
            return verdict
        }
        let open = await TransferExchange.openConnections(context)
        guard open.isEmpty else {
            return .fail("\(open.count) connection(s) still open after the central gave up: \(open.joined(separator: "; "))")
        }
        return .pass("the central failed (\(error)), unsubscribed and disconnected; no connection left")
    }
}
