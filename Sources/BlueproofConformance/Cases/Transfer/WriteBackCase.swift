import BlueproofTransfer

/// CBT/ROLE/BV-01: once the message is complete the central writes data back to the
/// peripheral's characteristic, which receives it (corebluetooth-transfer-sample.md, "When
/// the Central Receives the Data, Update the User Interface").
struct WriteBackCase: ConformanceCase {
    let id: CaseID = "CBT/ROLE/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 1, judgesAirDevice: true)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        guard try context.profile.bool("transfer.write_back") else {
            return .notApplicable("the profile says the central does not write back (transfer.write_back)")
        }
        let payload = TransferExchange.payload(1500)
        let profile = TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed, so no message could end: \(exchange.centralText)")
        }
        // A central on the air reports nothing of its own: its write-back is the evidence.
        let air = context.isAirDevice(1)
        let received = try? exchange.central.get()
        guard air || received?.payload == payload else {
            return .fail("\(payload.count) bytes were sent and did not arrive intact, so nothing was written back: \(exchange.centralText)")
        }
        guard case let .success(sent) = exchange.peripheral else {
            return .fail("the peripheral failed after sending: \(exchange.peripheralText)")
        }
        guard let reply = sent.reply, !reply.isEmpty else {
            return .fail("the peripheral received no write-back after EOM")
        }
        // The document does not say what is written back; ours writes the first chunk.
        let expected = Array(payload.prefix(received?.chunkSize ?? 0))
        guard context.isDevice(1) || reply == expected else {
            return .fail("the write-back holds \(reply.count) bytes, not the first \(expected.count) bytes of the message")
        }
        return .pass("the peripheral received the \(reply.count)-byte write-back")
    }
}
