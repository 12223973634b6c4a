import BlueproofTransfer

/// CBT/ROLE/BV-03: the same two nodes swap central and peripheral and transfer the other way
/// (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update the User
/// Interface": either device can take either role).
struct RoleSwapCase: ConformanceCase {
    let id: CaseID = "CBT/ROLE/BV-03"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let profile = TransferExchange.transferProfile(context)
        let first = TransferExchange.payload(1200)
        let forward = await TransferExchange.run(context, peripheralNode: 0, centralNode: 1, .send(first),
                                                 .receive(reply: .echoPrefix), profile: profile)
        guard case let .success(one) = forward.central, one.payload == first else {
            return .fail("node 0 → node 1 failed: \(TransferExchange.text(forward.central))")
        }
        let second = Array(TransferExchange.payload(1300).reversed())
        let backward = await TransferExchange.run(context, peripheralNode: 1, centralNode: 0, .send(second),
                                                  .receive(reply: .echoPrefix), profile: profile)
        guard case let .success(two) = backward.central, two.payload == second else {
            return .fail("after the swap, node 1 → node 0 failed: \(TransferExchange.text(backward.central))")
        }
        return .pass("\(first.count) bytes node 0 → node 1, then \(second.count) bytes node 1 → node 0, both byte-exact")
    }
}
