import BlueproofCapture
import BlueproofCheck
import BlueproofTransfer

/// CBT/FLOW/BI-01: no ACL packet goes out while the controller has no free buffer
/// (corebluetooth-transfer-sample.md, "Overview": the sender waits until it may send again).
/// The transfer runs while the peripheral's controller has one 27-byte buffer and withholds
/// Number Of Completed Packets for 1 s; the sender's capture is judged packet by packet.
struct CreditsCase: ConformanceCase {
    let id: CaseID = "CBT/FLOW/BI-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.withheldCredits, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(120_000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let faults = context.radio?.faultLog ?? []
        for fault in faults { context.log.note("radio proxy: \(fault)") }
        let outcome = Self.judge(try CaptureEvidence(path: context.captures[0]))
        guard outcome.verdict == .pass else { return outcome }
        guard case let .success(received) = exchange.central, received.payload == payload else {
            return .fail("credits were respected but the \(payload.count) bytes sent did not arrive intact: \(exchange.centralText)",
                         findings: outcome.findings)
        }
        guard faults.contains(where: { $0.kind == .releaseCredits }) else {
            return .error("the transfer ended before the proxy withheld and returned credits: \(faults.map(\.description))")
        }
        return .pass(outcome.reason + "; \(payload.count) bytes arrived byte-exact", findings: outcome.findings)
    }

    /// The verdict on one sender capture: BlueproofCheck's credit count.
    static func judge(_ capture: CaptureEvidence) -> CaseOutcome {
        guard let check = capture.check("CBT/FLOW/BI-01") else { return .error("the capture check CBT/FLOW/BI-01 is missing") }
        let finding = Finding(check, capture: capture.path)
        switch check.verdict {
        case .pass: return .pass(check.reason, findings: [finding])
        case .fail: return .fail("ACL packets sent beyond the controller's free buffers", findings: [finding])
        case .inconclusive: return .inconclusive(check.reason, findings: [finding])
        }
    }
}
