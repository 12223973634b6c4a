import BlueproofTransfer

/// CBT/ROLE/BV-02: the central's write-back goes out as an ATT Write Command, without
/// response (corebluetooth-transfer-sample.md, "When the Central Receives the Data, Update
/// the User Interface"; the characteristic offers write-without-response only). Judged on
/// the central's capture.
struct WriteCommandCase: ConformanceCase {
    let id: CaseID = "CBT/ROLE/BV-02"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange)

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(1500)
        let profile = try TransferExchange.transferProfile(context)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        guard case .success = exchange.central else { return .inconclusive("the transfer itself failed: \(exchange.centralText)") }
        let central = try CaptureEvidence(path: context.captures[1])
        let commands = central.attFrames(sent: 0x52)
        let requests = central.attFrames(sent: 0x12)
        guard !commands.isEmpty else {
            return .fail("no ATT Write Command left the central after the message",
                         findings: [Finding("Write Requests the central sent (subscription included)", capture: central.path,
                                            frames: requests)])
        }
        return .pass("write-back as ATT Write Command", findings: [Finding("Write Command", capture: central.path, frames: commands)])
    }
}
