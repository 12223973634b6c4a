import BlueproofTransfer

/// CBT/CHUNK/BV-04: a payload whose last data chunk would be exactly the end-of-message marker
/// still arrives whole (corebluetooth-transfer-sample.md, "When the Central Receives the Data,
/// Update the User Interface": the central ends the message on a value that is the marker, so a
/// data chunk of just those bytes would end it early). Two transfers at ATT_MTU 23 (chunks of
/// ATT_MTU - 3): the payload that is the marker text itself, and one of two full chunks plus
/// the marker. The sender must put them on the air so the message ends only after them (the
/// project's framing splits such a chunk, TransferChunker); the central must complete each one
/// byte-exact. This goes beyond the sample, which would stop at such a chunk.
struct MarkerPayloadCase: ConformanceCase {
    let id: CaseID = "CBT/CHUNK/BV-04"
    let needs = CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)
    static let mtu = 23

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let marker = Array(try context.profile.string("transfer.eom_marker").utf8)
        let header = try context.profile.int("transfer.att_header_bytes")
        var done: [String] = []
        for payload in Self.payloads(marker: marker, chunkSize: Self.mtu - header) {
            let profile = TransferExchange.transferProfile(context, mtu: Self.mtu)
            let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .none), profile: profile)
            if let outcome = Self.judge(exchange, payload: payload, marker: marker) { return outcome }
            done.append("\(payload.count) bytes")
        }
        return .pass("payloads ending in a lone \(String(decoding: marker, as: UTF8.self)) chunk arrived byte-exact at ATT_MTU "
                     + "\(Self.mtu): \(done.joined(separator: ", "))")
    }

    /// The marker alone, then two chunks of data ending with a third that is just the marker.
    static func payloads(marker: [UInt8], chunkSize: Int) -> [[UInt8]] {
        [marker, TransferExchange.payload(2 * chunkSize) + marker]
    }

    /// The verdict on one transfer, or nil when the payload arrived whole.
    static func judge(_ exchange: TransferExchange, payload: [UInt8], marker: [UInt8]) -> CaseOutcome? {
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed, so no message could end: \(exchange.centralText)")
        }
        let what = payload == marker ? "the payload that is the marker itself" : "a \(payload.count)-byte payload whose last chunk is the marker"
        switch exchange.central {
        case let .failure(error):
            return .fail("\(what) never completed at the central: \(error) (the sender: \(exchange.peripheralText))")
        case let .success(received):
            if let difference = TransferExchange.difference(sent: payload, received: received.payload ?? []) {
                return .fail("\(what) did not arrive whole: \(difference)")
            }
            return nil
        }
    }
}
