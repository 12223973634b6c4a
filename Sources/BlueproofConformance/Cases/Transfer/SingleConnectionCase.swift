import BlueproofTransfer

/// CBT/GATT/BI-01: a peer the central is already connecting to or connected with is not
/// connected again when another report of it comes (corebluetooth-transfer-sample.md,
/// "Discover Bluetooth Peripherals and Connect to Them": the central keeps the peripheral it
/// is connecting to and connects only when it has none). The radio proxy repeats the
/// peripheral's reports every 100 ms throughout; judged on the central's capture: one LE
/// Create Connection for the whole transfer, and the transfer completes.
struct SingleConnectionCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BI-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(3000)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix),
                                                  profile: TransferExchange.transferProfile(context))
        let capture = try CaptureEvidence(path: context.captures[1])
        let attempts = capture.createConnectionFrames
        let findings = [Finding("LE Create Connection", capture: capture.path, frames: attempts)]
        guard !attempts.isEmpty else {
            return .error("the central never connected: \(exchange.centralText)")
        }
        guard attempts.count == 1 else {
            return .fail("the central sent LE Create Connection \(attempts.count) times for one peer", findings: findings)
        }
        guard exchange.peripheralEvents.contains(where: { if case .connected = $0 { true } else { false } }) else {
            return .error("the peripheral never saw the connection: \(exchange.peripheralText)")
        }
        return .pass("one LE Create Connection (frame \(attempts[0])) while the peer kept advertising; \(exchange.peripheralText)",
                     findings: findings)
    }
}
