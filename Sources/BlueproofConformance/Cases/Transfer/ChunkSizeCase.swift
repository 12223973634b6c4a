import BlueproofHost
import BlueproofTransfer

/// CBT/CHUNK/BV-01: the sender's chunks are ATT_MTU - 3 bytes, at most 512
/// (corebluetooth-transfer-sample.md, "When the Peripheral Receives a Connection, Send the
/// Data": each chunk as large as the central can receive). One transfer at each ATT_MTU of the
/// title, 23, 185 and 517, on the same two nodes; each judged on the sender's chunks (its
/// capture, frame by frame, and its own error when its host refused an oversize value) and on
/// the payload the central received, byte for byte.
struct ChunkSizeCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-01"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0, judgesAirDevice: true)
    static let mtus = [23, 185, 517]
    static let payloadSize = 3000

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let header = try context.profile.int("transfer.att_header_bytes")
        let maximum = try context.profile.int("transfer.max_attribute_bytes")
        var done: [String] = []
        for (index, mtu) in Self.mtus.enumerated() {
            let expected = min(mtu - header, maximum)
            // A different payload each time, so a message from an earlier run cannot pass for this one.
            // A device on the air sends what it was given (--dut-payload).
            let payload = context.airDevice?.payload ?? TransferExchange.payload(Self.payloadSize + index)
            let profile = TransferExchange.transferProfile(context, mtu: mtu)
            let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
            if let outcome = Self.judge(exchange, payload: payload, mtu: mtu, expected: expected, header: header) {
                return outcome
            }
            done.append("ATT_MTU \(mtu): chunks of \(expected)")
        }
        if context.isAirDevice(0) {
            return .pass("\(done.joined(separator: "; ")); each payload arrived byte-exact (judged by our central: the device's capture is not ours)")
        }
        let sender = try CaptureEvidence(path: context.captures[0])
        guard let check = sender.check("CBT/CHUNK/BV-01") else { return .error("the capture check CBT/CHUNK/BV-01 is missing") }
        let finding = Finding(check, capture: sender.path)
        switch check.verdict {
        case .fail:
            return .fail("chunks are not min(ATT_MTU - \(header), \(maximum)) bytes", findings: [finding])
        case .inconclusive:
            return .fail("the payloads arrived but the sender's capture shows no chunked transfer: \(check.reason)",
                         findings: [finding])
        case .pass:
            return .pass("\(done.joined(separator: "; ")); each \(Self.payloadSize)-byte payload arrived byte-exact",
                         findings: [finding])
        }
    }

    /// The verdict on one transfer at `mtu`, or nil when it kept the rule.
    static func judge(_ exchange: TransferExchange, payload: [UInt8], mtu: Int, expected: Int, header: Int) -> CaseOutcome? {
        // The sender's host refuses a value longer than ATT_MTU - 3: the chunk size was wrong.
        if case let .failure(.host(.valueTooLong(length, limit))) = exchange.peripheral {
            return .fail("at ATT_MTU \(mtu) the sender made a \(length)-byte chunk; at most ATT_MTU - \(header) = \(limit) fit "
                         + "(its host refused it: \(exchange.peripheralText))")
        }
        guard exchange.centralReady != nil else {
            return .error("at ATT_MTU \(mtu) the central never got ready to receive: \(exchange.centralText)")
        }
        if let ready = exchange.centralReady, ready.mtu != mtu {
            return .error("the central asked for ATT_MTU \(mtu) and got \(ready.mtu): this run cannot show chunks at \(mtu)")
        }
        switch exchange.central {
        case let .failure(error):
            return .fail("at ATT_MTU \(mtu) \(payload.count) bytes were sent and the central did not receive them: \(error)")
        case let .success(received):
            if let difference = TransferExchange.difference(sent: payload, received: received.payload ?? []) {
                return .fail("at ATT_MTU \(mtu): \(difference)")
            }
            guard received.largestChunk == expected else {
                return .fail("at ATT_MTU \(mtu) the largest chunk was \(received.largestChunk) bytes, not ATT_MTU - \(header) = \(expected)")
            }
            return nil
        }
    }
}
