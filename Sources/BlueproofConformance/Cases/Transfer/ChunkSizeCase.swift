import BlueproofTransfer

/// CBT/CHUNK/BV-01: the sender's chunks are ATT_MTU - 3 bytes, at most 512
/// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
/// Data"). A transfer at ATT_MTU 185; judged on the announced chunk size and, frame by frame,
/// on the sender's capture.
struct ChunkSizeCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange)
    static let mtu = 185

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let header = try context.profile.int("transfer.att_header_bytes")
        let maximum = try context.profile.int("transfer.max_attribute_bytes")
        let expected = min(Self.mtu - header, maximum)
        let payload = TransferExchange.payload(4000)
        let profile = try TransferExchange.transferProfile(context, mtu: Self.mtu)
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let sender = try CaptureEvidence(path: context.captures[0])
        guard let check = sender.check("CBT/CHUNK/BV-01") else { return .error("the capture check CBT/CHUNK/BV-01 is missing") }
        switch check.verdict {
        case .fail:
            return .fail("chunks are not ATT_MTU - \(header) = \(expected) bytes", findings: [Finding(check, capture: sender.path)])
        case .inconclusive:
            let why = (try? exchange.central.get()).map { _ in check.reason } ?? "\(exchange.centralText)"
            return .inconclusive("no chunked transfer in the sender's capture: \(why)", findings: [Finding(check, capture: sender.path)])
        case .pass:
            guard case let .success(received) = exchange.central else {
                return .fail("the chunks looked right but the central failed: \(exchange.centralText)")
            }
            guard received.mtu == Self.mtu, received.largestChunk == expected else {
                return .fail("ATT_MTU \(received.mtu), largest chunk \(received.largestChunk); expected \(expected) at ATT_MTU \(Self.mtu)")
            }
            return .pass("\(received.chunks) chunks of \(expected) bytes at ATT_MTU \(Self.mtu)", findings: [Finding(check, capture: sender.path)])
        }
    }
}
