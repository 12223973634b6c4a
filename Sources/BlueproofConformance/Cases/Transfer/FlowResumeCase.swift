import BlueproofTransfer

/// CBT/FLOW/BV-01: with its controller's credits withheld the sender stalls, then resumes
/// once they come back, and the receiver gets every byte once (corebluetooth-transfer-sample.md,
/// "Overview"). The same topology as CBT/FLOW/BI-01; judged on the payload and the proxy's log.
struct FlowResumeCase: ConformanceCase {
    let id: CaseID = "CBT/FLOW/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.withheldCredits, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(120_000)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let faults = context.radio?.faultLog ?? []
        for fault in faults { context.log.note("radio proxy: \(fault)") }
        guard let released = faults.first(where: { $0.kind == .releaseCredits }), (released.count ?? 0) > 0 else {
            guard case let .success(received) = exchange.central, received.payload == payload else {
                return .fail("\(payload.count) bytes were sent and did not arrive intact: \(exchange.centralText)")
            }
            return .error("the proxy withheld no credit while the transfer was under way: nothing to resume from")
        }
        guard case let .success(received) = exchange.central else {
            return .fail("the transfer did not resume after credits came back at \(released.time) s: \(exchange.centralText)")
        }
        guard received.payload == payload else {
            return .fail("\(received.bytes) bytes arrived, not the \(payload.count) sent, or in another order")
        }
        return .pass("stalled while credits were withheld, resumed at \(released.time) s; \(payload.count) bytes arrived once, in order")
    }
}
