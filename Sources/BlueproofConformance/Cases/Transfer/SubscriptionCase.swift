import BlueproofCheck
import BlueproofTransfer

/// CBT/GATT/BV-03: the central enables notifications before the peripheral sends its first
/// chunk (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the
/// User Interface"). Judged by BlueproofCheck on the peripheral's capture.
struct SubscriptionCase: ConformanceCase {
    let id: CaseID = "CBT/GATT/BV-03"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(1500)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let outcome = CaptureCase(id: id).judge(
            CaptureAnalyserResults.of(try CaptureEvidence(path: context.captures[0])))
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        if outcome.verdict == .pass {
            guard case let .success(received) = exchange.central, received.payload == payload else {
                return .fail("subscribed first, but the \(payload.count) bytes sent did not arrive intact: \(exchange.centralText)",
                             findings: outcome.findings)
            }
        }
        return outcome
    }
}

/// Every BlueproofCheck result on one capture, for ``CaptureCase/judge(_:)``.
enum CaptureAnalyserResults {
    static func of(_ evidence: CaptureEvidence) -> [(capture: String, check: CaptureCheck)] {
        evidence.allChecks.map { (capture: evidence.path, check: $0) }
    }
}
